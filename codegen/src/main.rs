mod cache;
mod exports;
mod headers;
mod libraries;
mod type_table;

fn main() {
    let layouts = cache::load_layouts(&cache::cache_dir()).unwrap();
    for lib in libraries::ALL {
        for l in &layouts {
            for v in headers::View::ALL {
                let t = std::time::Instant::now();
                match headers::parse(&lib, l, v) {
                    Ok(h) => println!(
                        "{} {} {:?}: {} fns, {} items, {} structs {:?}",
                        lib.name,
                        l.major,
                        v,
                        h.functions.len(),
                        h.type_items.len(),
                        h.types.structs.len(),
                        t.elapsed()
                    ),
                    Err(e) => println!("ERR {e}"),
                }
            }
        }
    }
}
