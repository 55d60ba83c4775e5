import { handlers } from "@/app/_lib/auth";

export const { GET, POST } = handlers;
