//! Prints the CPU features Tessera detects.
fn main() {
    println!("{}", tessera_cpu::features());
}
