//! Loops one operation for profiling (`perf record`, `valgrind --tool=callgrind`):
//! `perf_loop <backend> <dh|base> <iterations>`.

use tessera_x25519::testing::{Backend, x25519_base_with_backend, x25519_with_backend};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let be = Backend::from_name(&args[1]).expect("backend not available");
    let n: usize = args[3].parse().expect("iterations");
    let mut k = [0x5au8; 32];
    let mut u = [9u8; 32];
    u[31] = 0;
    for _ in 0..n {
        let out = if args[2] == "base" {
            x25519_base_with_backend(be, k)
        } else {
            x25519_with_backend(be, k, u)
        };
        k[0] ^= out[0];
        u = out;
    }
    println!("{:02x?}", &k[..4]);
}
