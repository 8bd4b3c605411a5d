#!/usr/bin/env bash
# Makes the demo's certificate authority and its loopback server certificate again (README.md
# beside this script says what they are for). Needs the openssl command; the app never runs it.
# The CA's private key is thrown away, so nothing can be signed with this CA afterwards.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
days=10950 # 30 years: the demo must keep working on an old install without a rebuild

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$work/ca.key" -out "$here/ca.pem" -days "$days" \
    -subj "/CN=Switchyard demo CA (loopback only, not for real use)" \
    -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
    -addext "keyUsage=critical,keyCertSign,cRLSign"

openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$here/localhost.key" -out "$work/localhost.csr" -subj "/CN=localhost"
cat >"$work/leaf.ext" <<'EXT'
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1,DNS:localhost
EXT
openssl x509 -req -in "$work/localhost.csr" -CA "$here/ca.pem" -CAkey "$work/ca.key" \
    -CAserial "$work/ca.srl" -CAcreateserial -days "$days" -sha256 -extfile "$work/leaf.ext" -out "$here/localhost.pem"

openssl verify -CAfile "$here/ca.pem" "$here/localhost.pem"
