#!/usr/bin/env python3
"""Writes the structured seed files of fuzz/corpus/{x25519,p256,mlkem,mldsa} in each target's
input layout (see the target's header): keys, ciphertexts and signatures from the shared NIST
ACVP vectors and RFC 7748, DER documents built from the RFC 8410 / RFC 5915 / FIPS 203 and 204
key structures, P-256 keys and signatures made by OpenSSL.

Run from the repository root: python3 fuzz/seeds.py [VECTORS_DIR] (default ../shared/vectors).
"""
import json, os, subprocess, sys, tempfile

VEC = sys.argv[1] if len(sys.argv) > 1 else "../shared/vectors"
OUT = "fuzz/corpus"


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def der_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag, body):
    return bytes([tag]) + der_len(len(body)) + body


def oid(dotted):
    p = [int(x) for x in dotted.split(".")]
    out = bytes([40 * p[0] + p[1]])
    for v in p[2:]:
        enc = [v & 0x7F]
        v >>= 7
        while v:
            enc.append(0x80 | (v & 0x7F))
            v >>= 7
        out += bytes(reversed(enc))
    return tlv(0x06, out)


def pkcs8(alg_oid, private_key):
    """PrivateKeyInfo: version 0, AlgorithmIdentifier (no parameters), OCTET STRING."""
    return tlv(0x30, tlv(0x02, b"\x00") + tlv(0x30, oid(alg_oid)) + tlv(0x04, private_key))


def spki(alg_oid, pk):
    return tlv(0x30, tlv(0x30, oid(alg_oid)) + tlv(0x03, b"\x00" + pk))


def acvp(name):
    d = os.path.join(VEC, "nist-acvp", name)
    p = json.load(open(os.path.join(d, "prompt.json")))
    r = json.load(open(os.path.join(d, "expectedResults.json")))
    res = {(g["tgId"], t["tcId"]): t for g in r["testGroups"] for t in g["tests"]}
    for g in p["testGroups"]:
        for t in g["tests"]:
            yield g, t, res[(g["tgId"], t["tcId"])]


# X25519: k (32) || u (32) || DER. RFC 7748 section 5.2, first vector.
k = bytes.fromhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4")
u = bytes.fromhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")
X25519 = "1.3.101.110"
put("x25519", "rfc7748", k + u)
put("x25519", "pkcs8", k + u + pkcs8(X25519, tlv(0x04, k)))
put("x25519", "spki", k + u + spki(X25519, u))
put("x25519", "low-order", k + bytes(32))

# ML-KEM: op, set, seed (64), m (32), data. Ops 0x80 | n take data as it is.
MLKEM = {"ML-KEM-512": (0, "2.16.840.1.101.3.4.4.1"), "ML-KEM-768": (1, "2.16.840.1.101.3.4.4.2"),
         "ML-KEM-1024": (2, "2.16.840.1.101.3.4.4.3")}
done = set()
for g, t, r in acvp("ML-KEM-keyGen-FIPS203"):
    s, o = MLKEM[g["parameterSet"]]
    if s in done:
        continue
    done.add(s)
    seed = bytes.fromhex(t["d"]) + bytes.fromhex(t["z"])
    ek = bytes.fromhex(r["ek"])
    head = bytes([0x80, s]) + seed + bytes(32)
    put("mlkem", f"ek-{s}", head + ek)
    put("mlkem", f"spki-{s}", bytes([3, s]) + seed + bytes(32) + spki(o, ek))
    put("mlkem", f"pkcs8-{s}", bytes([3, s]) + seed + bytes(32) + pkcs8(o, b"\x80\x40" + seed))
    for op in (0, 1, 2):
        put("mlkem", f"genuine-{op}-{s}", bytes([op, s]) + seed + bytes(range(32)))
done = set()
for g, t, r in acvp("ML-KEM-encapDecap-FIPS203"):
    s, _ = MLKEM[g["parameterSet"]]
    if g["function"] != "encapsulation" or s in done:
        continue
    done.add(s)
    put("mlkem", f"ct-{s}", bytes([0x81, s]) + bytes(64) + bytes.fromhex(t["m"]) + bytes.fromhex(r["c"]))

# ML-DSA: op, set, seed (32), ctx_len, msg_len, data (message || context || rest).
MLDSA = {"ML-DSA-44": (0, "2.16.840.1.101.3.4.3.17"), "ML-DSA-65": (1, "2.16.840.1.101.3.4.3.18"),
         "ML-DSA-87": (2, "2.16.840.1.101.3.4.3.19")}
done = set()
for g, t, r in acvp("ML-DSA-keyGen-FIPS204"):
    s, o = MLDSA[g["parameterSet"]]
    if s in done:
        continue
    done.add(s)
    seed = bytes.fromhex(t["seed"])
    for op in (0, 1, 2):
        put("mldsa", f"genuine-{op}-{s}", bytes([op, s]) + seed + bytes([3, 3]) + b"abcctx")
    put("mldsa", f"pkcs8-{s}", bytes([3, s]) + seed + bytes([0, 3]) + b"abc" + pkcs8(o, b"\x80\x20" + seed))
    put("mldsa", f"spki-{s}", bytes([3, s]) + seed + bytes([0, 3]) + b"abc" + spki(o, bytes.fromhex(r["pk"])))

# P-256: op, d (32), e (32), signature (64), data. Keys and signatures from OpenSSL.
with tempfile.TemporaryDirectory() as tmp:
    def ossl(*args, stdin=None):
        return subprocess.run(["openssl", *args], check=True, capture_output=True, input=stdin).stdout
    key = os.path.join(tmp, "k.pem")
    ossl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key)
    sec1 = ossl("ec", "-in", key, "-outform", "DER")
    p8 = ossl("pkcs8", "-topk8", "-nocrypt", "-in", key, "-outform", "DER")
    pub = ossl("ec", "-in", key, "-pubout", "-outform", "DER")
    d = sec1[7:39]
    e = bytes(range(32))
    msg = os.path.join(tmp, "m")
    open(msg, "wb").write(e)
    sig = ossl("dgst", "-sha256", "-sign", key, msg)
    point = pub[-65:]
    head = lambda op: bytes([op]) + d + e + bytes(64)
    put("p256", "point", head(0) + point)
    put("p256", "point-compressed", head(0) + bytes([2 + (point[-1] & 1)]) + point[1:33])
    put("p256", "verify", head(1) + b"abc")
    put("p256", "der-signature", head(2) + sig)
    put("p256", "pkcs8", head(3) + p8)
    put("p256", "sec1", head(3) + sec1)
    put("p256", "spki", head(3) + pub)
