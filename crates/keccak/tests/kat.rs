//! NIST CAVP SHA-3 / SHAKE vectors (Short, Long, Monte, VariableOut) from the official set.

use tessera_testkit::cavp;

fn sha3(bits: usize, m: &[u8]) -> Vec<u8> {
    match bits {
        224 => tessera_keccak::sha3_224(m).to_vec(),
        256 => tessera_keccak::sha3_256(m).to_vec(),
        384 => tessera_keccak::sha3_384(m).to_vec(),
        512 => tessera_keccak::sha3_512(m).to_vec(),
        _ => unreachable!(),
    }
}

fn shake(bits: usize, m: &[u8], out_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; out_len];
    match bits {
        128 => tessera_keccak::shake128(m, &mut out),
        256 => tessera_keccak::shake256(m, &mut out),
        _ => unreachable!(),
    }
    out
}

fn msg(r: &cavp::Record) -> Vec<u8> {
    let mut m = r.hex("Msg");
    m.truncate(r.int("Len") / 8);
    m
}

#[test]
fn sha3_short_and_long() {
    let mut n = 0;
    for bits in [224, 256, 384, 512] {
        for kind in ["ShortMsg", "LongMsg"] {
            let Some(recs) = cavp::load(&format!("SHA3_{bits}{kind}.rsp")) else {
                continue;
            };
            for r in &recs {
                let m = msg(r);
                assert_eq!(
                    sha3(bits, &m),
                    r.hex("MD"),
                    "SHA3-{bits} {kind} Len={}",
                    r.int("Len")
                );
                // Incremental, in two uneven pieces.
                let split = m.len() / 3;
                let inc = match bits {
                    256 => tessera_keccak::Sha3_256::new()
                        .update(&m[..split])
                        .update(&m[split..])
                        .finalize()
                        .to_vec(),
                    _ => sha3(bits, &m),
                };
                assert_eq!(inc, r.hex("MD"));
                n += 1;
            }
        }
    }
    eprintln!("sha3 short/long vectors checked: {n}");
}

#[test]
fn sha3_monte() {
    for bits in [224, 256, 384, 512] {
        let Some(recs) = cavp::load(&format!("SHA3_{bits}Monte.rsp")) else {
            continue;
        };
        let mut md = recs[0].hex("Seed");
        let mut checked = 0;
        for r in recs.iter().filter(|r| r.fields.contains_key("MD")) {
            for _ in 0..1000 {
                md = sha3(bits, &md);
            }
            assert_eq!(
                md,
                r.hex("MD"),
                "SHA3-{bits} Monte COUNT={}",
                r.get("COUNT")
            );
            checked += 1;
        }
        assert_eq!(checked, 100);
    }
}

#[test]
fn shake_short_and_long() {
    let mut n = 0;
    for bits in [128, 256] {
        for kind in ["ShortMsg", "LongMsg"] {
            let Some(recs) = cavp::load(&format!("SHAKE{bits}{kind}.rsp")) else {
                continue;
            };
            for r in &recs {
                let expect = r.hex("Output");
                assert_eq!(
                    shake(bits, &msg(r), expect.len()),
                    expect,
                    "SHAKE{bits} {kind}"
                );
                n += 1;
            }
        }
    }
    eprintln!("shake short/long vectors checked: {n}");
}

#[test]
fn shake_variable_out() {
    for bits in [128, 256] {
        let Some(recs) = cavp::load(&format!("SHAKE{bits}VariableOut.rsp")) else {
            continue;
        };
        let mut n = 0;
        for r in recs.iter().filter(|r| r.fields.contains_key("Output")) {
            let expect = r.hex("Output");
            assert_eq!(r.int("Outputlen").div_ceil(8), expect.len());
            let m = r.hex("Msg");
            assert_eq!(
                shake(bits, &m, expect.len()),
                expect,
                "SHAKE{bits} VariableOut"
            );
            // The same output read in 1-, 7- and 13-byte chunks.
            for chunk in [1, 7, 13] {
                let mut rd = match bits {
                    128 => tessera_keccak::Shake128::new().update(&m).finalize_xof(),
                    _ => tessera_keccak::Shake256::new().update(&m).finalize_xof(),
                };
                let mut out = vec![0u8; expect.len()];
                for c in out.chunks_mut(chunk) {
                    rd.read(c);
                }
                assert_eq!(out, expect);
            }
            n += 1;
        }
        assert!(n > 0);
    }
}

/// SHA3VS section 6.3.3 Monte Carlo test for SHAKE (output lengths in bytes).
#[test]
fn shake_monte() {
    for bits in [128, 256] {
        let Some(recs) = cavp::load(&format!("SHAKE{bits}Monte.rsp")) else {
            continue;
        };
        let hdr = |k: &str| -> usize {
            recs[0]
                .headers
                .iter()
                .find(|(h, _)| h.starts_with(k))
                .expect(k)
                .1
                .parse()
                .unwrap()
        };
        let min = hdr("Minimum Output Length") / 8;
        let max = hdr("Maximum Output Length") / 8;
        let mut output = recs[0].hex("Msg");
        let mut out_len = max;
        let mut checked = 0;
        for r in recs.iter().filter(|r| r.fields.contains_key("Output")) {
            for _ in 0..1000 {
                let mut m = [0u8; 16];
                let k = output.len().min(16);
                m[..k].copy_from_slice(&output[..k]);
                output = shake(bits, &m, out_len);
                let right =
                    u16::from_be_bytes([output[output.len() - 2], output[output.len() - 1]]);
                out_len = min + (right as usize % (max - min + 1));
            }
            assert_eq!(
                output,
                r.hex("Output"),
                "SHAKE{bits} Monte COUNT={}",
                r.get("COUNT")
            );
            checked += 1;
        }
        assert_eq!(checked, 100);
    }
}
