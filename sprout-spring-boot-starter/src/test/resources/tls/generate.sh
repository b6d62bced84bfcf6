#!/bin/sh
# Regenerates the starter tests' TLS key material: a self-signed test CA valid from 2000 for over a century and leaf
# certificates it signed, in every form Boot's server.ssl.* and SSL bundles read (PKCS12, JKS, PEM). Test-only,
# never real secrets: every store and key password is "changeit". Needs keytool and openssl. Run from anywhere:
# ./generate.sh
#
#   truststore.p12                   the CA certificate alone (what clients and the client-auth trust store trust)
#   ca.pem                           the same, as PEM
#   localhost.p12 / localhost.jks    key + chain for "localhost" and 127.0.0.1, alias "localhost"
#   localhost-cert.pem, -key.pem     the same as PEM (chain; unencrypted PKCS#8 key)
#   other.p12, other-cert.pem, -key.pem  key + chain for "other.test" (SNI, key alias and reload tests)
#   two-keys.p12                     both keys, aliases "localhost" and "other" (key alias tests)
#   client.p12                       key + chain for "Sprout Test Client" (client authentication)
set -eu
cd "$(dirname "$0")"
PASS=changeit
DAYS=45000
# From 2000, so a machine whose clock is behind this one still finds every certificate valid.
START="2000/01/01 00:00:00"
rm -f ./*.p12 ./*.jks ./*.pem ./*.csr ./*.crt

keytool -genkeypair -alias ca -keyalg EC -groupname secp256r1 -dname "CN=Sprout Test CA" -ext bc:c=ca:true \
    -ext ku:c=keyCertSign,cRLSign -startdate "$START" -validity $DAYS -keystore ca.p12 -storetype PKCS12 -storepass $PASS
keytool -exportcert -alias ca -keystore ca.p12 -storepass $PASS -rfc -file ca.pem
keytool -importcert -noprompt -alias ca -file ca.pem -keystore truststore.p12 -storetype PKCS12 -storepass $PASS

# leaf <store> <subject CN> <extended key usage> [<subject alternative names>]
leaf() {
    keytool -genkeypair -alias "$1" -keyalg EC -groupname secp256r1 -dname "CN=$2" -startdate "$START" -validity $DAYS \
        -keystore "$1.p12" -storetype PKCS12 -storepass $PASS
    keytool -certreq -alias "$1" -keystore "$1.p12" -storepass $PASS -file "$1.csr"
    if [ -n "${4:-}" ]; then
        keytool -gencert -alias ca -keystore ca.p12 -storepass $PASS -infile "$1.csr" -outfile "$1.crt" -rfc \
            -startdate "$START" -validity $DAYS -ext "eku=$3" -ext "san=$4"
    else
        keytool -gencert -alias ca -keystore ca.p12 -storepass $PASS -infile "$1.csr" -outfile "$1.crt" -rfc \
            -startdate "$START" -validity $DAYS -ext "eku=$3"
    fi
    # The CA goes in only so keytool can build the chain of the reply; the key entry keeps the chain.
    keytool -importcert -noprompt -alias ca -file ca.pem -keystore "$1.p12" -storepass $PASS
    keytool -importcert -alias "$1" -file "$1.crt" -keystore "$1.p12" -storepass $PASS
    keytool -delete -alias ca -keystore "$1.p12" -storepass $PASS
    cat "$1.crt" ca.pem > "$1-cert.pem"
    openssl pkcs12 -in "$1.p12" -passin pass:$PASS -nocerts -nodes 2>/dev/null \
        | openssl pkcs8 -topk8 -nocrypt -out "$1-key.pem"
    rm -f "$1.csr" "$1.crt"
}

leaf localhost "localhost" serverAuth "dns:localhost,ip:127.0.0.1"
leaf other "other.test" serverAuth "dns:other.test"
leaf client "Sprout Test Client" clientAuth
rm -f client-cert.pem client-key.pem

keytool -importkeystore -noprompt -srckeystore localhost.p12 -srcstorepass $PASS -destkeystore localhost.jks \
    -deststoretype JKS -deststorepass $PASS 2>/dev/null
keytool -importkeystore -noprompt -srckeystore localhost.p12 -srcstorepass $PASS -destkeystore two-keys.p12 \
    -deststoretype PKCS12 -deststorepass $PASS
keytool -importkeystore -noprompt -srckeystore other.p12 -srcstorepass $PASS -destkeystore two-keys.p12 \
    -deststoretype PKCS12 -deststorepass $PASS
rm -f ca.p12
