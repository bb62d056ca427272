/** The Step Functions client, once per process (see `aws.ts`); its own module so only `moves/` bundles it. */
import { SFNClient } from "@aws-sdk/client-sfn";
import { memo } from "./aws.js";

export const sfnClient = memo("AWS_ENDPOINT_URL_SFN", (endpoint) => new SFNClient({ endpoint }));
