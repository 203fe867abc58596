fn main() {
    let seed: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    print!("{}", kpl_lang::printer::print_kernel(&kpl_lang::generate::generate(seed)));
}
