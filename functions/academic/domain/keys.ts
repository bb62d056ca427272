/**
 * DynamoDB keys of the academic context (all prefixed `ACAD#`), named by the access pattern that
 * reads them. `<store>` is a data layer's store name (`aulas_uni`, `docentes`).
 *
 * | item                                   | pk                       | sk              | read by                          |
 * |----------------------------------------|--------------------------|-----------------|----------------------------------|
 * | record of a store                      | ACAD#<store>             | REC#<id>        | list: Query pk, begins_with REC# |
 * | store metadata (list version, last id) | ACAD#<store>             | META            | GetItem before every list        |
 * | data associated with a record          | ACAD#<store>#<id>        | <sub>#<sub id>  | Query pk (sub-lists, deletion)   |
 *
 * A list is one Query of one partition, cached per process and stamped with the store's list
 * version: every write bumps `META.version` in the same transaction, so a list request costs one
 * consistent GetItem while nothing changed (see `data/almacen.ts`). Record fields live under the
 * attribute `datos`, so no field name can collide with a key attribute.
 */
export const PREFIJO_REGISTRO = "REC#";

export const registroKey = (almacen: string, id: string) => ({ pk: `ACAD#${almacen}`, sk: `${PREFIJO_REGISTRO}${id}` });
export const registrosDe = (almacen: string) => ({ pk: `ACAD#${almacen}`, skPrefix: PREFIJO_REGISTRO });
export const metaKey = (almacen: string) => ({ pk: `ACAD#${almacen}`, sk: "META" });
export const asociadosDe = (almacen: string, id: string) => ({ pk: `ACAD#${almacen}#${id}` });
export const asociadoKey = (almacen: string, id: string, sub: string, subId: string) => ({
  pk: `ACAD#${almacen}#${id}`,
  sk: `${sub}#${subId}`,
});
