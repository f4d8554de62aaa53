//! Prints the IR of a SPIR-V file (a debugging aid for the interpreter).
fn main() {
    let path = std::env::args().nth(1).expect("a .spv path");
    let words = spvsass::frontend::words_from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let shader = spvsass::frontend::translate(&words, &Default::default()).unwrap();
    print!("{shader}");
}
