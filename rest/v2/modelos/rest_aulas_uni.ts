/** Data layer of the classrooms (`aulas-uni`): create, list, read one. */
import { almacen_academico, type Registro } from "../../../functions/academic/lib.js";

export class rest_aulas_uni extends almacen_academico {
  constructor() {
    super("aulas_uni", "aula");
  }

  /** Stores the classroom; its new numeric id, or `false` when it could not be stored. */
  post(datos: Registro): Promise<number | false> {
    return this.crear(datos);
  }

  get_list(): Promise<readonly Registro[]> {
    return this.listar();
  }

  get(id: string): Promise<Registro | undefined> {
    return this.buscar(id);
  }
}
