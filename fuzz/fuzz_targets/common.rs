//! What every target shares: the built-in variants, loaded once per process, as the binary
//! loads them (`load_variant`).

use std::rc::Rc;

use corbeau::map::{Variant, load_variant};

thread_local! {
    static VARIANTS: Vec<Rc<Variant>> = ["westeros", "classique"]
        .iter()
        .map(|name| Rc::new(load_variant(name).expect("a built-in variant loads")))
        .collect();
}

/// The built-in variant picked by `byte`, and the bytes after it.
pub fn with_variant<T>(data: &[u8], f: impl FnOnce(&Rc<Variant>, &[u8]) -> T) -> Option<T> {
    let (&pick, rest) = data.split_first()?;
    Some(VARIANTS.with(|all| f(&all[usize::from(pick) % all.len()], rest)))
}
