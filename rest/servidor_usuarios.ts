/**
 * API users of the development installation (the original's `servidor_usuarios.ini`), with hashed
 * secrets only. They are marked `solo_desarrollo`: on AWS Lambda they are refused, and a deployment
 * passes its own list in `FORGELINE_ACADEMIC_USERS_JSON` (same shape, as JSON).
 *
 * Development credentials (documented on purpose; never valid in a deployment):
 * | usuario          | grupos        | password                | api_key                                     |
 * |------------------|---------------|-------------------------|---------------------------------------------|
 * | admin_dev        | admin         | admin-dev-clave         | dev-api-key-admin-7f3c9a1e5b2d4c6f          |
 * | verificador_dev  | verificador   | verificador-dev-clave   | dev-api-key-verificador-2a8e4b6c1d3f5a7e    |
 * | invitado_dev     | (none)        | invitado-dev-clave      | dev-api-key-invitado-9c1e3a5b7d2f4e6a       |
 *
 * Hash a new secret with: `npx tsx functions/academic/build/hash.ts <secret> [scrypt|sha256]`.
 */
import type { UsuarioApi } from "../functions/academic/lib.js";

export const servidor_usuarios: UsuarioApi[] = [
  {
    usuario: "admin_dev",
    grupos: ["admin"],
    password: "scrypt$16384$8$1$tjNkJYylb8A3ZAgTQhqWhg==$Kh3vvnycrgWsAVDXTf/OWon8r/ivpjb+GOi7mVLYLCk=",
    api_key: "sha256$fcb614ff05fe411acd175624a4c757495c628f6e6b2fb0a3f366d045d51de1f1",
    solo_desarrollo: true,
  },
  {
    usuario: "verificador_dev",
    grupos: ["verificador"],
    password: "scrypt$16384$8$1$UaYEkfqAbqXKDz5Hz4/ZIA==$iO4Oj5CRPwjVHt4KdJLJEBlcpSlpAtEdnwCNEVPEOms=",
    api_key: "sha256$17d497c532ffe4a482556bd259ce89b0c7bff29192b31902d1ed065b279feb0a",
    solo_desarrollo: true,
  },
  {
    usuario: "invitado_dev",
    grupos: [],
    password: "scrypt$16384$8$1$qncz9NufYpa3tNgvQd3yaw==$CvGByvcXh2NKTRSTK4pWhOLSlJLZFm7pgbYZojf3zqs=",
    api_key: "sha256$b9735b9dc87593148d7ef6f7b7f264c483ec7ac41e3c23df1b09609ae99590f8",
    solo_desarrollo: true,
  },
];
