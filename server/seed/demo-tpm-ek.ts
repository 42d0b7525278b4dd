// SPEC F5: the demo-only endorsement key pair (fixtures/tpm-ek-demo.key.pem, a
// copy of the shared fixture; no real TPM's, its private half is published).
// The seed plays a software TPM with it, so demo machines prove their EK by
// credential activation as real ones do (F1); acme's allow-list holds its hash.
// Kept in code, not read from a file, because the seed also runs inside the app
// (the embedded database's first start); demo-tpm-ek.test.ts keeps it equal to the fixture.
export const DEMO_TPM_EK_PRIVATE_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC20lpP1/UmB3na
Kxa0ZgrrgN3cOLcR36s+Iea3Al2+R0MLpHjgRWi72zCp+WIjcqHZmGCjpTgVtNXI
d7A+ThUXYbJqWkskwvCmPXE8OBYXPegY2iPwniVZdUzYyLSTqH0kdxcsRze/Ohz6
/ME6F5YUxAXoqotk2tiKKr9mr4iEorci8Ylh+GLQqcAE6EXBdRnbgi8ovxo7ZNcA
aOLdWFxyx77n/9Hfkzt9c3QNdLbAhJsSu9hjNJqGlxutuJYDUSZ9Xz/cu0B0Jb2h
UBoVxeOnbGmKPfHZDEQt+aFQMI9outdq8P8W9oT5UhcGanyuGg5Pn8rTIaEV/BXR
BLhoa6SHAgMBAAECggEAQI+dO/f4BwN52P0Bahhk/9CEyJmwsJurhegD6RnpT+Ir
f4eH9i8cssZPc57xNLJtDIH+kpusaCHxovb9YqtBUH38OwmC4ssCn7ov7EOkLXX7
qhcSvQykBOjjB+Usu74y3zc9FDJcMegMRugONn0Qz2l/6q+bRTTxZi19ZP5U9/1C
C+sDiBF77125mkqU1O6dALcfDCNtoO5lz51fESnyKpsTLgZ7CvLFJCJNL1HL72Az
mo8ncwh4OZUbCiRJx+UldKiedLKJKnrOIbG2qa3VPWQl9ScLi1yJ1AVAWSYD4Sv8
RQ5vhyflPcF8yc5nuCzRsIwntx8I1G3XnLLH/gXfbQKBgQD26f8ZWC4A3OyDgBZk
wU2uBYjRUxdGzJ6D0eX4c5ugznLWTVIJK/SXpEECHAlCBEdzOnGuzTuu29rGpmdX
RujmfIsrdtw0clD1a0tV5pV1a+kBtWUbxLr8rPCmBxf5Sbr8doAPMnX2l5k43pCH
OKthb2o/PdNlVfyDvXe8YXSTZQKBgQC9jJZYqiAsyuYPFXfPV0TRU4Z/DgCyKVjv
lDgZiMft07dUeV2X7VWwYGVaDI26HFKJn/1fvCVtyvyz5k/eZ9JDqq5nOOxcX601
Z2HFuRpgAUgczdQZi0P8ppff3YlKeboJR5UB57SOm1gV3P8iz0XTs/ACn4je20jy
Mx2cRrPXewKBgGlmqgbfpYOoyy23V9fazJYktqrklWMbpe8PguP0NdMHTe49Q2+2
28p/y2BjJ3CO8xE1OaIs6fVS1KlID4UqN/Fr6Ny8+HNK+VRKYPZiYBqn3edkz6xy
5n9GM9Qr4wf/eVqcGz5hhAmn3ThxibCveDk3nlswwTTY59o03xADagghAoGATZ0K
VuXaZNzz1MtSkqjGOfw8fzvplwoNK5SCYBo82yos0D8dzr7UrnLaLUQkqEc+mLHV
GuU8YjeSv8sXexcB5sk1vnh1d+GJV+usAj0oCpWbxIeXSJpYzVQdrgHVXJR5U6Fm
5y/MI/SB3fnu0n8StXvhVAGlFrOtq9a4Uiw1KY8CgYEA6sBO2KrbAvYrbhXzcDte
p7l3/O8mvBniEcLGF8PSjkS5cVFL+ux+S7VmnA6VkPMhuNvlpfoVIn41cBR/IeTo
MHGC3c52RvePc6FsR0Mw/nCCLh0FfWN8pAM06PazCW15cL//j6YV5S2mpHpd8IsM
9yPnmK//Bbzg8S6R2JFfr4E=
-----END PRIVATE KEY-----
`;
