#!/bin/sh
# Regenerates the engine tests' TLS key material: a self-signed test CA valid from 2000 for over a century and leaf certificates it
# signed. Test-only, never real secrets: every store's password is "changeit". Needs keytool (and openssl for the
# PEM files the Python client reads). Run from anywhere: ./generate.sh [directory], by default into its own; the
# starter's generate.sh runs it for its directory and adds the forms Boot reads.
#
#   truststore.p12  the CA certificate alone (what clients trust)
#   ca.pem          the same, as PEM
#   localhost.p12   key + chain for "localhost" and 127.0.0.1 (the default server certificate)
#   other.p12       key + chain for "other.test" (the certificate chosen by SNI)
#   client.p12      key + chain for "Sprout Test Client" (client authentication)
#   client.pem      the client's key and chain as PEM, for the Python client
set -eu
cd "${1:-$(dirname "$0")}"
PASS=changeit
DAYS=45000
# From 2000, so a machine whose clock is behind this one still finds every certificate valid.
START="2000/01/01 00:00:00"
rm -f ./*.p12 ./*.pem ./*.csr ./*.crt

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
    rm -f "$1.csr" "$1.crt"
}

leaf localhost "localhost" serverAuth "dns:localhost,ip:127.0.0.1"
leaf other "other.test" serverAuth "dns:other.test"
leaf client "Sprout Test Client" clientAuth

openssl pkcs12 -in client.p12 -passin pass:$PASS -nodes -out client.pem 2>/dev/null
rm -f ca.p12
