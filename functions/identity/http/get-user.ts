import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { notFound } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import { adminUser, basicUser, findUser, fullUser } from "../domain/users.js";

export const endpoint = defineEndpoint(
  { summary: "One user", access: "read_user", params: z.object({ user_id: positiveInt() }) },
  async ({ c, principal, params }) => {
    const user = await findUser(params.user_id);
    if (!user) throw notFound("User");
    const view = principal.user.admin ? adminUser : principal.user.id === user.id ? fullUser : basicUser;
    return view(user, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
