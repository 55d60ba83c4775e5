// `npm run sdk:types`: writes packages/sdk/src/api-types.ts from the API's own OpenAPI document with
// openapi-typescript, so no request or response type in the SDK is written by hand. The SDK tests fail when
// the committed file and the served document drift apart.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { sdkTypesFromDocument } from "./sdk-types";

const target = path.resolve(import.meta.dirname, "../packages/sdk/src/api-types.ts");
writeFileSync(target, await sdkTypesFromDocument(buildOpenApiDocument("http://localhost:3000")));
console.log(`Wrote ${path.relative(process.cwd(), target)}`);
