/**
 * Base class of the data layers (`rest_<name>_<inst>`): a store of records in DynamoDB (keys in
 * `domain/keys.ts`). A data layer subclass exposes the seed's operations (`post`, `get_list`, `get`,
 * `put`, `delete`) on top of these protected primitives, so each layer states which ones it offers.
 *
 * Lists: the whole store is one partition, read with one consistent Query and kept in memory while
 * the store's list version (bumped in the same transaction as every write) is unchanged. A list
 * request therefore costs one GetItem when nothing changed, on any number of Lambda instances.
 */
import { getItem, isConditionFailure, queryAll, transact, updateItem, writeBatch, type TransactItem } from "../../platform/db/table.js";
import { log } from "../../platform/log.js";
import { asociadoKey, asociadosDe, metaKey, registroKey, registrosDe } from "../domain/keys.js";
import type { Registro } from "../domain/modelos.js";
import { demasiadoGrande } from "../domain/errores.js";

type Lista = { version: number; filas: readonly Registro[] };
const listas = new Map<string, Lista>();
const enCurso = new Map<string, Promise<Lista>>();
/** Stores larger than this are not kept in memory (read on every request instead). */
const MAXIMO_EN_MEMORIA = 100_000;

export abstract class almacen_academico {
  /**
   * @param almacen store name (the partition: `ACAD#<almacen>`)
   * @param campo_id the field that carries a record's id in what the layer returns (`aula`, `docente`)
   */
  protected constructor(
    protected readonly almacen: string,
    readonly campo_id: string,
  ) {}

  private version() {
    return { Update: { Key: metaKey(this.almacen), UpdateExpression: "ADD version :uno", ExpressionAttributeValues: { ":uno": 1 } } } satisfies TransactItem;
  }

  /** Creates a record with the next numeric id; `false` when the store refused it (e.g. too large). */
  protected async crear(datos: Registro): Promise<number | false> {
    for (let intento = 0; intento < 5; intento++) {
      const meta = await updateItem({ ...metaKey(this.almacen), update: "ADD ultimo_id :uno", values: { ":uno": 1 } });
      const id = Number(meta?.ultimo_id);
      try {
        await transact([{ Put: { Item: { ...registroKey(this.almacen, String(id)), datos: { ...datos, [this.campo_id]: id } }, ConditionExpression: "attribute_not_exists(pk)" } }, this.version()]);
        return id;
      } catch (err) {
        if (rechazoDeValidacion(err)) {
          log.warn("record refused by the store", { almacen: this.almacen, error: (err as Error).name });
          return false;
        }
        if (!isConditionFailure(err)) throw err; // else the id was taken by an explicit put: next one
      }
    }
    return false;
  }

  protected async listar(): Promise<readonly Registro[]> {
    const meta = await getItem<{ version?: number }>(metaKey(this.almacen).pk, metaKey(this.almacen).sk);
    const version = meta?.version ?? 0;
    const guardada = listas.get(this.almacen);
    if (guardada && guardada.version === version) return guardada.filas;
    const clave = `${this.almacen}@${version}`;
    let pendiente = enCurso.get(clave);
    if (!pendiente) {
      pendiente = this.leerTodo(version).finally(() => enCurso.delete(clave));
      enCurso.set(clave, pendiente);
    }
    return (await pendiente).filas;
  }

  private async leerTodo(version: number): Promise<Lista> {
    const { pk, skPrefix } = registrosDe(this.almacen);
    const items = await queryAll<{ datos: Registro }>({ pk, skPrefix, projection: ["datos"], consistent: true });
    const lista = { version, filas: Object.freeze(items.map((i) => Object.freeze(i.datos))) };
    if (lista.filas.length <= MAXIMO_EN_MEMORIA) listas.set(this.almacen, lista);
    return lista;
  }

  protected async buscar(id: string): Promise<Registro | undefined> {
    const { pk, sk } = registroKey(this.almacen, id);
    return (await getItem<{ datos: Registro }>(pk, sk))?.datos;
  }

  /** Creates the record with this id or replaces it; says which. A record too large to store → 413. */
  protected async guardar(id: string | number, datos: Registro): Promise<"creado" | "modificado"> {
    const Item = { ...registroKey(this.almacen, String(id)), datos: { ...datos, [this.campo_id]: id } };
    try {
      await transact([{ Put: { Item, ConditionExpression: "attribute_not_exists(pk)" } }, this.version()]);
      return "creado";
    } catch (err) {
      if (rechazoDeValidacion(err)) throw demasiadoGrande();
      if (!isConditionFailure(err)) throw err;
    }
    await transact([{ Put: { Item } }, this.version()]);
    return "modificado";
  }

  /** Removes the record and everything associated with it; `false` when it did not exist. */
  protected async borrar(id: string): Promise<boolean> {
    const clave = registroKey(this.almacen, id);
    if (!(await getItem(clave.pk, clave.sk))) return false;
    const asociados = await queryAll<{ pk: string; sk: string }>({ pk: asociadosDe(this.almacen, id).pk, projection: ["pk", "sk"], consistent: true });
    const borrarAsociados = asociados.map((a) => ({ Delete: { Key: { pk: a.pk, sk: a.sk } } }));
    if (borrarAsociados.length > 90) {
      await writeBatch(asociados.map((a) => ({ delete: { pk: a.pk, sk: a.sk } })));
      borrarAsociados.length = 0;
    }
    try {
      await transact([{ Delete: { Key: clave, ConditionExpression: "attribute_exists(pk)" } }, ...borrarAsociados, this.version()]);
      return true;
    } catch (err) {
      if (isConditionFailure(err) && !rechazoDeValidacion(err)) return false;
      throw err;
    }
  }

  protected async listar_asociados(id: string, sub: string): Promise<Registro[]> {
    const items = await queryAll<{ datos: Registro }>({ pk: asociadosDe(this.almacen, id).pk, skPrefix: `${sub}#`, projection: ["datos"], consistent: true });
    return items.map((i) => i.datos);
  }

  /** Stores data associated with a record (removed together with it). */
  async agregar_asociado(id: string, sub: string, subId: string, datos: Registro): Promise<void> {
    await transact([{ Put: { Item: { ...asociadoKey(this.almacen, id, sub, subId), datos } } }]);
  }

  /** Bulk load (imports, benchmarks): records carry their id in `campo_id`; one version bump at the end. */
  async importar(registros: readonly Registro[]): Promise<void> {
    await writeBatch(registros.map((datos) => ({ put: { ...registroKey(this.almacen, String(datos[this.campo_id])), datos } })));
    const mayor = Math.max(0, ...registros.map((r) => Number(r[this.campo_id])).filter(Number.isFinite));
    await updateItem({ ...metaKey(this.almacen), update: "ADD version :uno", values: { ":uno": 1 } });
    await updateItem({ ...metaKey(this.almacen), update: "SET ultimo_id = :m", condition: "attribute_not_exists(ultimo_id) OR ultimo_id < :m", values: { ":m": mayor } }).catch((err) => {
      if (!isConditionFailure(err)) throw err;
    });
  }
}

/** DynamoDB refused the item itself (too large, invalid attribute), not a condition. */
function rechazoDeValidacion(err: unknown): boolean {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] };
  return e.name === "ValidationException" || Boolean(e.CancellationReasons?.some((r) => r.Code === "ValidationError"));
}
