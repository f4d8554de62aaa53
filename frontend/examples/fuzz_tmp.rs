fn main() {
    let files = ["tests/shaders/point.mesh.spv", "tests/shaders/triangle.mesh.spv", "frontend/tests/data/loop.comp.spv"];
    let mut seed: u64 = 0x12345678;
    let mut rnd = move || { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; seed };
    std::panic::set_hook(Box::new(|_| {}));
    let mut panics = 0; let mut oks = 0; let mut errs = std::collections::HashMap::new();
    for f in files {
        let bytes = std::fs::read(f).unwrap();
        let words = spvsass_frontend::words_from_bytes(&bytes).unwrap();
        for _ in 0..200000 {
            let mut w = words.clone();
            let n = 1 + rnd() % 3;
            for _ in 0..n {
                let i = 5 + (rnd() as usize) % (w.len() - 5);
                match rnd() % 4 {
                    0 => w[i] ^= 1 << (rnd() % 32),
                    1 => w[i] = (rnd() % 64) as u32,
                    2 => w[i] = (w[i] & 0xffff0000) | (rnd() % 400) as u32,
                    _ => { let j = 5 + (rnd() as usize) % (w.len() - 5); w[i] = w[j]; }
                }
            }
            let r = std::panic::catch_unwind(|| spvsass_frontend::translate(&w, &Default::default()));
            match r {
                Err(_) => { panics += 1; if panics < 5 { let _ = std::fs::write(format!("/tmp/panic{panics}.spv"), w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()); } }
                Ok(Ok(_)) => oks += 1,
                Ok(Err(e)) => { let k = format!("{e:?}"); let k = k.split(|c: char| !c.is_alphanumeric()).next().unwrap().to_string(); *errs.entry(k).or_insert(0) += 1; }
            }
        }
    }
    println!("panics {panics} oks {oks} errs {errs:?}");
}
