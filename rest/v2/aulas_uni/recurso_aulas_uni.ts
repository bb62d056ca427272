/**
 * @description Aulas de la institución (recurso nuevo de la personalización)
 */
import { fabrica, hidratar, rest, rest_error, validador, type modelable, type Modelo, type Modelos, type Registro } from "../../../functions/academic/lib.js";
import type { rest_aulas_uni } from "../modelos/rest_aulas_uni.js";

export class recurso_aulas_uni implements modelable {
  modelo: rest_aulas_uni;

  constructor() {
    this.modelo = fabrica.rest<rest_aulas_uni>("rest_aulas_uni");
  }

  /**
   * `Aula_uni` is what a client sends (POST); `AulaMostrar_uni` is what GET returns: the same fields
   * preceded by the classroom's id, `aula`, so generated clients keep it. SIU's own examples pair
   * the models the same way ("una persona para mostrar o para crear": `Persona` and `PersonaEditar`).
   */
  static _get_modelos(): Modelos {
    const aula: Modelo = {
      nombre: { type: "string" },
      fecha_creacion: { type: "string", _validar: [validador.fecha()] },
      estado: { type: "string", enum: ["A", "B"], _validar: [validador.enum(["A", "B"])] },
      edificio: { $ref: "#/definitions/Edificio_uni" },
    };
    return {
      Aula_uni: aula,
      AulaMostrar_uni: { aula: { type: "integer", readOnly: true, description: "Identificador del aula" }, ...aula },
      Edificio_uni: {
        nombre: { type: "string" },
      },
    };
  }

  /**
   * POST /aulas-uni
   * @summary Crea un aula
   * @notes Crea un aula. En 3.22 responde <b>201</b> con <code>{"resultado": "…"}</code>;<br>
   *        en 3.16 responde 201 sin cuerpo.
   * @param_body $aula Aula_uni [required] Datos del aula
   * @responses 201 Aula creada
   * @responses 400 Errores de validación en el cuerpo
   * @responses 500 No se pudo crear el aula
   */
  async post_list(): Promise<void> {
    const id = await this.modelo.post(rest.request().get_body_json() ?? {});
    if (id === false) throw new rest_error(500, "No se pudo crear el aula");
    if (rest.release() === "3.22") {
      rest.response().post({ resultado: `Se creó el aula ${id}` }).add_headers({ Location: `/rest/v2/aulas-uni/${id}` });
    }
    // 3.16: the handler sends no explicit response (the library answers 201 with an empty body).
  }

  /**
   * GET /aulas-uni
   * @summary Lista de aulas
   * @notes Cada aula incluye su identificador en el campo <code>aula</code>.
   * @param_query $nombre string Filtro por nombre
   * @param_query $estado string Filtro por estado
   * @param_query $order string (defecto: +nombre,+estado) [nombre, estado] Orden
   * @param_query $limit integer (defecto: 20) Cantidad máxima de registros
   * @param_query $page integer Número de página (desde 1)
   * @responses 200 array {"$ref":"AulaMostrar_uni"} Aulas
   * @responses 400 Filtro, orden o página inválidos
   */
  async get_list(): Promise<void> {
    const aulas = rest.consulta().aplicar(await this.modelo.get_list());
    rest.response().get_list(aulas.map(comoAula));
  }

  /**
   * GET /aulas-uni/{id_aula}
   * @summary Aula {id_aula}
   * @responses 200 {"$ref":"AulaMostrar_uni"} El aula
   * @responses 404 El aula no existe
   */
  async get(id_aula: string): Promise<void> {
    const aula = await this.modelo.get(id_aula);
    rest.response().get(aula && comoAula(aula));
  }
}

/** A stored classroom in the shape of `AulaMostrar_uni`: its id (`aula`), then the fields of `Aula_uni`. */
const comoAula = (fila: Registro) => hidratar(recurso_aulas_uni._get_modelos().AulaMostrar_uni!, fila);
