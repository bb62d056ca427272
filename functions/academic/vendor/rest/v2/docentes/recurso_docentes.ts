/**
 * Vendor resource `docentes` (`/rest/v2/docentes`). Institutions customize it by deriving
 * `recurso_docentes_<inst>` from this class (see `rest/v2/docentes_uni/`).
 *
 * Model `Docente` (vendor): `docente` (integer id, read-only), `legajo` (file number), `apellido`
 * (required), `nombre` (required), `activo` (boolean, default true). Model `Comision`: `comision`
 * (integer id), `nombre`, `periodo`.
 *
 * @description Docentes de la institución (recurso del sistema)
 */
import { hidratar, type modelable, type Modelos, type Registro } from "../../../../domain/modelos.js";
import { validador } from "../../../../domain/validador.js";
import { fabrica, rest } from "../../../../runtime/contexto.js";
import type { rest_docentes } from "../modelos/rest_docentes.js";

export class recurso_docentes implements modelable {
  modelo: rest_docentes;

  constructor() {
    this.modelo = fabrica.rest<rest_docentes>("rest_docentes");
  }

  static _get_modelos(): Modelos {
    return {
      Docente: {
        docente: { type: "integer", readOnly: true, description: "Identificador del docente" },
        legajo: { type: "string", description: "Legajo" },
        apellido: { type: "string", _validar: [validador.obligatorio()] },
        nombre: { type: "string", _validar: [validador.obligatorio()] },
        activo: { type: "boolean", default: true },
      },
      Comision: {
        comision: { type: "integer" },
        nombre: { type: "string" },
        periodo: { type: "string" },
      },
    };
  }

  /** The model list items are shaped into; a derived resource may return its own. */
  protected modelo_de_lista(): string {
    return "Docente";
  }

  /**
   * GET /docentes
   * @summary Docentes activos
   * @notes Lista los docentes <b>activos</b>. Filtro <code>apellido_nombre</code> sobre "apellido nombre".
   * @param_query $apellido_nombre filter Filtro por apellido y nombres
   * @param_query $order string (defecto: +apellido,+nombre) [apellido, nombre, legajo] Orden
   * @param_query $limit integer (defecto: 20) Cantidad máxima de registros
   * @param_query $page integer Número de página (desde 1)
   * @responses 200 array {"$ref":"Docente"} Docentes activos
   * @responses 400 Filtro, orden o página inválidos
   */
  async get_list(): Promise<void> {
    const pagina = rest
      .consulta<Registro>({ campos: { apellido_nombre: (d) => `${d.apellido ?? ""} ${d.nombre ?? ""}` }, solo: (d) => d.activo !== false })
      .aplicar(await this.modelo.get_list());
    const modelo = (this.constructor as typeof recurso_docentes)._get_modelos()[this.modelo_de_lista()] ?? {};
    rest.response().get_list(pagina.map((d) => hidratar(modelo, d)));
  }

  /**
   * GET /docentes/{id_docente}
   * @summary Docente {id_docente}
   * @responses 200 {"$ref":"Docente"} El docente
   * @responses 404 No existe el docente
   */
  async get(id_docente: string): Promise<void> {
    const docente = await this.modelo.get(id_docente);
    rest.response().get(docente && hidratar(recurso_docentes._get_modelos().Docente!, docente));
  }

  /**
   * GET /docentes/{id_docente}/comisiones
   * @summary Comisiones del docente {id_docente}
   * @responses 200 array {"$ref":"Comision"} Comisiones a cargo del docente
   */
  async get_comisiones_list(id_docente: string): Promise<void> {
    if (!(await this.modelo.get(id_docente))) rest.response().not_found();
    const modelo = recurso_docentes._get_modelos().Comision!;
    rest.response().get_list((await this.modelo.get_comisiones(id_docente)).map((c) => hidratar(modelo, c)));
  }
}
