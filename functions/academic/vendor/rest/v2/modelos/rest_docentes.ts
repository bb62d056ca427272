/**
 * Vendor data layer of teachers: lists them, reads one, reads a teacher's commissions. Writing is not
 * offered by the vendor; an institution adds `put` and `delete` in its own `rest_docentes`
 * (`rest/v2/modelos/rest_docentes.ts`), which the factory then returns instead of this one.
 */
import { almacen_academico } from "../../../../data/almacen.js";
import type { Registro } from "../../../../domain/modelos.js";

export class rest_docentes extends almacen_academico {
  constructor() {
    super("docentes", "docente");
  }

  get_list(): Promise<readonly Registro[]> {
    return this.listar();
  }

  get(id: string): Promise<Registro | undefined> {
    return this.buscar(id);
  }

  get_comisiones(id: string): Promise<Registro[]> {
    return this.listar_asociados(id, "comisiones");
  }

  /** Assigns a commission to a teacher (used by the vendor's own processes and by tests). */
  agregar_comision(id: string, comision: Registro & { comision: number }): Promise<void> {
    return this.agregar_asociado(id, "comisiones", String(comision.comision), comision);
  }
}
