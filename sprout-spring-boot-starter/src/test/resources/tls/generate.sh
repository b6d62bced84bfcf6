#!/bin/sh
# Regenerates the starter tests' TLS key material: the engine's set (a self-signed test CA valid from 2000 for over a
# century and leaf certificates it signed; sprout-engine/src/test/resources/tls/generate.sh, run for this directory)
# plus every other form Boot's server.ssl.* and SSL bundles read (JKS, PEM). Test-only, never real secrets: every
# store and key password is "changeit". Needs keytool and openssl. Run from anywhere: ./generate.sh
#
#   truststore.p12                   the CA certificate alone (what clients and the client-auth trust store trust)
#   ca.pem                           the same, as PEM
#   localhost.p12 / localhost.jks    key + chain for "localhost" and 127.0.0.1, alias "localhost"
#   localhost-cert.pem, -key.pem     the same as PEM (chain; unencrypted PKCS#8 key)
#   other.p12, other-cert.pem, -key.pem  key + chain for "other.test" (SNI, key alias and reload tests)
#   two-keys.p12                     both keys, aliases "localhost" and "other" (key alias tests)
#   client.p12                       key + chain for "Sprout Test Client" (client authentication)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PASS=changeit
rm -f "$HERE"/*.jks
"$HERE/../../../../../sprout-engine/src/test/resources/tls/generate.sh" "$HERE"
cd "$HERE"
rm -f client.pem

for name in localhost other; do
    openssl pkcs12 -in "$name.p12" -passin pass:$PASS -clcerts -nokeys 2>/dev/null | openssl x509 > "$name-cert.pem"
    cat ca.pem >> "$name-cert.pem"
    openssl pkcs12 -in "$name.p12" -passin pass:$PASS -nocerts -nodes 2>/dev/null \
        | openssl pkcs8 -topk8 -nocrypt -out "$name-key.pem"
done

keytool -importkeystore -noprompt -srckeystore localhost.p12 -srcstorepass $PASS -destkeystore localhost.jks \
    -deststoretype JKS -deststorepass $PASS 2>/dev/null
keytool -importkeystore -noprompt -srckeystore localhost.p12 -srcstorepass $PASS -destkeystore two-keys.p12 \
    -deststoretype PKCS12 -deststorepass $PASS
keytool -importkeystore -noprompt -srckeystore other.p12 -srcstorepass $PASS -destkeystore two-keys.p12 \
    -deststoretype PKCS12 -deststorepass $PASS
