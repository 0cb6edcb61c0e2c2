fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "map" && args[2] == "check" {
        match corbeau::map::load_variant(&args[3]) {
            Ok(v) => println!("{}: {} provinces, {} houses: ok", args[3], v.provinces.len(), v.houses.len()),
            Err(e) => { eprintln!("{e}"); std::process::exit(1); }
        }
    }
}
