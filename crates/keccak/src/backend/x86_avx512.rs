//! AVX-512 F+VL backend: the AVX2 code of `x86_avx2.rs` on the same 256-bit vectors, compiled
//! with AVX-512 F+VL, where the compiler turns the rotations into VPROLQ and chi's AND-NOT/XOR
//! into VPTERNLOGQ and has 32 registers, so far less state is spilled.

super::x86_avx2::x4_islands!(X86Avx512, tessera_cpu::X86Avx512::avx2);
