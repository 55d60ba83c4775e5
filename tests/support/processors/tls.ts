// A certificate authority of the tests' own, and a server certificate it signs for 127.0.0.1 and localhost: the
// processors' stand-ins answer over HTTPS, as Mollie's and Stripe's APIs do, and the app trusts this authority
// through PROCESSOR_CA_FILE (docs/processors.md). Made once per process with the openssl command, in a temporary
// folder.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface StandInTls {
  /** The authority's certificate (PEM), the file PROCESSOR_CA_FILE names. */
  caFile: string;
  ca: string;
  key: string;
  cert: string;
}

let made: StandInTls | undefined;

export function standInTls(): StandInTls {
  if (made) return made;
  const dir = mkdtempSync(path.join(tmpdir(), "processor-tls-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl(
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Processor stand-in CA"],
    ...["-keyout", file("ca.key"), "-out", file("ca.pem")],
  );
  openssl(
    ...["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1"],
    ...["-keyout", file("server.key"), "-out", file("server.csr")],
  );
  writeFileSync(file("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  openssl(
    ...["x509", "-req", "-in", file("server.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key")],
    ...["-CAcreateserial", "-days", "2", "-extfile", file("san.ext"), "-out", file("server.pem")],
  );
  made = {
    caFile: file("ca.pem"),
    ca: readFileSync(file("ca.pem"), "utf8"),
    key: readFileSync(file("server.key"), "utf8"),
    cert: readFileSync(file("server.pem"), "utf8"),
  };
  return made;
}
