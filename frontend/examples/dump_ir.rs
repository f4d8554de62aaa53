fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(path).unwrap();
    let words = spvsass_frontend::words_from_bytes(&bytes).unwrap();
    match spvsass_frontend::translate(&words, &Default::default()) {
        Ok(s) => println!("{s}"),
        Err(e) => println!("error: {e}"),
    }
}
