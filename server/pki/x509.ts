// @peculiar/x509 needs the reflect-metadata polyfill loaded before it, and
// signs and verifies with the WebCrypto it is given. Import x509 from here,
// never directly, so both hold everywhere (server, seed, scripts).
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export { x509 };
export const subtle = webcrypto.subtle as unknown as SubtleCrypto;
