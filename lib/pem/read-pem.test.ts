import { describe, expect, it } from "vitest";
import { PemFormatError, readPem } from "./read-pem";

const DER = Buffer.from("3003020101", "hex");
const block = (label: string, body = DER.toString("base64")) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;

describe("readPem (SPEC G1: one reading of a key)", () => {
  it("reads exactly one block of the label, whitespace and CRLF around and inside it", () => {
    expect(readPem(block("PUBLIC KEY"), "PUBLIC KEY")).toEqual(DER);
    expect(readPem(`\r\n  ${block("PUBLIC KEY").replaceAll("\n", "\r\n")}\t\n`, "PUBLIC KEY")).toEqual(DER);
    expect(readPem(block("PUBLIC KEY", "MAMC\nAQE="), "PUBLIC KEY")).toEqual(DER);
  });

  it.each([
    ["a second block of another label", block("X509 PUBLIC KEY") + block("PUBLIC KEY"), /holds 2 PEM blocks/],
    ["a second block of the same label", block("PUBLIC KEY") + block("PUBLIC KEY"), /holds 2 PEM blocks/],
    ["another label", block("RSA PUBLIC KEY"), /is a PEM RSA PUBLIC KEY; send a PEM PUBLIC KEY/],
    ["the X.509 label", block("X509 PUBLIC KEY"), /is a PEM X509 PUBLIC KEY/],
    ["trailing bytes", `${block("PUBLIC KEY")}junk`, /nothing but whitespace around it/],
    ["leading bytes", `junk\n${block("PUBLIC KEY")}`, /nothing but whitespace around it/],
    ["mismatched END label", block("PUBLIC KEY").replace("END PUBLIC KEY", "END CERTIFICATE"), /nothing but whitespace/],
    ["RFC 1421 headers", block("PUBLIC KEY", `Proc-Type: 4,ENCRYPTED\n\n${DER.toString("base64")}`), /nothing but whitespace/],
    ["bad base64 (misplaced padding)", block("PUBLIC KEY", "MA=MCAQE="), /body is not base64/],
    ["bad base64 (wrong length)", block("PUBLIC KEY", "MAMCAQ"), /body is not base64/],
    ["bad base64 (stray padding bits)", block("PUBLIC KEY", "MAMCAQF="), /body is not base64/],
    ["an empty body", block("PUBLIC KEY", ""), /body is not base64/],
    ["no PEM at all", "MAMCAQE=", /is not a PEM PUBLIC KEY/],
    ["no END line", "-----BEGIN PUBLIC KEY-----\nMAMCAQE=\n", /nothing but whitespace/],
  ])("refuses %s", (_, text, message) => {
    expect(() => readPem(text, "PUBLIC KEY")).toThrowError(PemFormatError);
    expect(() => readPem(text, "PUBLIC KEY")).toThrowError(message);
  });
});
