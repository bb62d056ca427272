/**
 * The vendor's teachers data layer with the two operations the derived `docentes-uni` resource needs
 * (the seed: "put and delete must be added to the data layer class rest_docentes").
 */
import type { Registro } from "../../../functions/academic/lib.js";
import { rest_docentes as rest_docentes_vendor } from "../../../functions/academic/vendor/lib.js";

export class rest_docentes extends rest_docentes_vendor {
  /**
   * Creates or replaces the teacher. Returns the numeric id when the teacher was created and
   * `"modificado"` (non-numeric) when an existing one was replaced. `activo` defaults to true.
   */
  async put(id: string, datos: Registro): Promise<number | string> {
    const resultado = await this.guardar(Number(id), { activo: true, ...datos });
    return resultado === "creado" ? Number(id) : "modificado";
  }

  /** Removes the teacher physically, with its associated data (commissions); false if missing. */
  delete(id: string): Promise<boolean> {
    return this.borrar(id);
  }
}
