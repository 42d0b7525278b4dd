// The endorsement key acme's TPM allow-list vouches for (SPEC Part C), the
// public key of fixtures/tpm-ek-allowed.pem (a copy of the shared fixture):
// demo machines joining gpu-a present it. Kept in code, not read from a file,
// because the seed also runs inside the app (the embedded database's first
// start). demo-tpm-ek.test.ts keeps the two equal.
export const DEMO_ALLOWED_EK_PEM = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnAjvTUKMLUFa6YwKDgSG
ixUDDTSXjKVOrVUDAF922xzF40lcsA+fkaasNs39zW1FOe5EodGb92Iw0lYSFGjT
YAddGAkpiLIeD4VSlOUZm75LMnuwgsoma6hFiUpc+or3goUNKgKQlp7NYCgdOoYO
HbFkmd0t+xt4AN3b93elpwJX6XnQ125TfkPUJ+vidadLWmkMNbTlhuXylv0Y6uDB
5X/3pcI5rm0+oO7kIHqfsO7bnQYbSYQ1oxp6PI/MTmLF1sF2awcTD7wt4iMKpnVM
SWal4AQu3oGirPT79i94pcRwLzpZEsgTfhlVWBcHHG5nqhQoRhP+bUfxh7nENo18
GQIDAQAB
-----END PUBLIC KEY-----
`;
