/**
 * @description [PERS] Docentes de la institución: el recurso docentes con DNI, alta/modificación y baja
 */
import { fabrica, parametroInvalido, rest, servicio_no_disponible, type Modelos } from "../../../functions/academic/lib.js";
import { recurso_docentes } from "../../../functions/academic/vendor/lib.js";
import type { rest_docentes } from "../modelos/rest_docentes.js";

export class recurso_docentes_uni extends recurso_docentes {
  declare modelo: rest_docentes;

  constructor() {
    super();
    this.modelo = fabrica.rest<rest_docentes>("rest_docentes");
  }

  static override _get_modelos(): Modelos {
    const modelos = super._get_modelos();
    modelos.Docente_uni = { ...modelos.Docente, dni: { type: "string" } };
    return modelos;
  }

  protected override modelo_de_lista(): string {
    return "Docente_uni";
  }

  /**
   * GET /docentes-uni
   * @summary [PERS] Docentes activos
   * @notes [PERS] Forma personalizada de GET /docentes: lista los docentes <b>activos</b> con su DNI.
   * @param_query $apellido_nombre filter Filtro por apellido y nombres
   * @param_query $order string (defecto: +apellido,+nombre) [apellido, nombre, legajo] Orden
   * @param_query $limit integer (defecto: 20) Cantidad máxima de registros
   * @param_query $page integer Número de página (desde 1)
   * @responses 200 array {"$ref":"Docente_uni"} Docentes activos
   * @responses 400 Filtro, orden o página inválidos
   */
  override async get_list(): Promise<void> {
    await super.get_list();
  }

  /**
   * PUT /docentes-uni/{id_docente}
   * @summary [PERS] Crea o modifica el docente {id_docente}
   * @param_body $docente Docente_uni [required] Datos del docente
   * @responses 201 Docente creado: {"docente": <id>}
   * @responses 204 Docente modificado
   * @responses 400 Errores de validación
   */
  async put(id_docente: string): Promise<void> {
    if (!/^[1-9]\d{0,14}$/.test(id_docente)) throw parametroInvalido("id_docente", `Se esperaba un número entero positivo y se recibio '${id_docente}'`);
    const resultado = await this.modelo.put(id_docente, rest.request().get_body_json() ?? {});
    if (typeof resultado === "number") rest.response().post({ docente: resultado });
    else rest.response().put();
  }

  /**
   * DELETE /docentes-uni/{id_docente}
   * @summary [PERS] Borra el docente {id_docente} y sus datos asociados
   * @responses 204 Docente borrado
   * @responses 404 El docente no existe
   */
  async delete(id_docente: string): Promise<void> {
    if (!(await this.modelo.delete(id_docente))) rest.response().not_found();
    rest.response().delete();
  }

  /**
   * GET /docentes-uni/{id_docente}/comisiones
   * @summary [PERS] Deshabilitado
   * @notes Servicio heredado deshabilitado por la institución: siempre responde 500.
   * @responses 500 Servicio no disponible
   */
  override async get_comisiones_list(_id_docente: string): Promise<void> {
    throw new servicio_no_disponible("GET /docentes-uni/{id_docente}/comisiones");
  }
}
