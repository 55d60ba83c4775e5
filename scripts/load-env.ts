// Scripts read .env files exactly as Next.js does, so the CLI, worker and server agree on configuration.
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production");
