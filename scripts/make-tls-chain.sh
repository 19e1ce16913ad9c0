#!/bin/bash
# Makes the TLS 1.3 workloads' certificate chain (docs/TLS.md): a P-256 CA and a P-256 server
# certificate it signs (ECDSA with SHA-256), DER, written as C arrays into
# firmware/workloads/vectors/tls13_p256_chain.h. Run once; the header is committed, so every
# library verifies the same bytes (ECDSA signatures are randomised: a second run makes a
# different, equally valid chain). Needs the openssl command (Debian: openssl).
#
#   scripts/make-tls-chain.sh [OUT_HEADER]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-firmware/workloads/vectors/tls13_p256_chain.h}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/ca.ext" <<'EOF'
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
EOF
cat >"$tmp/server.ext" <<'EOF'
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:server.fathom.test
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF

# 100 years: the target has no clock and the libraries' date checks are off, but a host tool
# that inspects the chain should not find it expired.
days=36500
openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/ca.key"
openssl req -new -key "$tmp/ca.key" -subj "/O=fathom/CN=fathom test CA" -out "$tmp/ca.csr"
openssl x509 -req -sha256 -in "$tmp/ca.csr" -signkey "$tmp/ca.key" -days "$days" \
  -extfile "$tmp/ca.ext" -set_serial 1 -out "$tmp/ca.pem" 2>/dev/null
openssl ecparam -name prime256v1 -genkey -noout -out "$tmp/server.key"
openssl req -new -key "$tmp/server.key" -subj "/O=fathom/CN=server.fathom.test" -out "$tmp/server.csr"
openssl x509 -req -sha256 -in "$tmp/server.csr" -CA "$tmp/ca.pem" -CAkey "$tmp/ca.key" \
  -days "$days" -extfile "$tmp/server.ext" -set_serial 2 -out "$tmp/server.pem"
openssl verify -CAfile "$tmp/ca.pem" "$tmp/server.pem" >/dev/null

openssl x509 -in "$tmp/ca.pem" -outform DER -out "$tmp/ca.der"
openssl x509 -in "$tmp/server.pem" -outform DER -out "$tmp/server.der"
openssl ec -in "$tmp/server.key" -outform DER -out "$tmp/server_key.der" 2>/dev/null

array() {  # NAME FILE
  echo "static const unsigned char $1[] = {"
  xxd -i <"$2" | sed 's/^/ /'
  echo "};"
}
{
  cat <<EOF
/* fathom: the TLS 1.3 workloads' certificate chain (docs/TLS.md), made by
 * scripts/make-tls-chain.sh with $(openssl version | cut -d' ' -f1-2) on $(date -u +%Y-%m-%d):
 * a self-signed P-256 CA ("fathom test CA") and the P-256 server certificate it signs
 * ("server.fathom.test", subjectAltName DNS:server.fathom.test), ECDSA with SHA-256, valid for
 * $days days; the server's private key as a SEC1 ECPrivateKey. DER throughout. Test data only:
 * the private key is public. */
#ifndef FATHOM_VECTORS_TLS13_P256_CHAIN_H
#define FATHOM_VECTORS_TLS13_P256_CHAIN_H

/* The name the client expects in the server's certificate. */
#define TLS13_SERVER_NAME "server.fathom.test"

EOF
  array tls13_ca_cert_der "$tmp/ca.der"
  echo
  array tls13_server_cert_der "$tmp/server.der"
  echo
  array tls13_server_key_der "$tmp/server_key.der"
  echo
  echo "#endif /* FATHOM_VECTORS_TLS13_P256_CHAIN_H */"
} >"$out"
echo "wrote $out"
