//! Place names in the reader's language. Views and stored results name each place with
//! the variant's own name (French on Westeros); before a view is rendered for a reader of
//! another language, the names the variant translates are put in their place. The ids,
//! which players write in orders, never change.
//! Every view, the results too, is renamed the same way, on the JSON its template reads:
//! any object written as a [`crate::game::results::Place`] is, wherever the view puts it,
//! and so are a house (a [`crate::game::results::HouseRef`] under a `house` key) and the
//! variant (a [`crate::game::results::VariantRef`] under `variant`): on the classic map the
//! powers are named in French and the provinces in English, so both readers need it.

use serde::Serialize;
use serde_json::Value;

use crate::lang::Lang;
use crate::map::Variant;

/// The data of a view as JSON, its places named for readers of `lang`.
pub fn localized<T: Serialize + ?Sized>(data: &T, variant: &Variant, lang: Lang) -> Value {
    let mut value = serde_json::to_value(data).unwrap_or(Value::Null);
    localize(&mut value, variant, lang);
    value
}

/// Renames, in place, every place of `value` (an object with `id`, `province` and `name`,
/// as [`super::Place`] is written) whose province has a name in `lang`, every house and
/// the variant.
pub fn localize(value: &mut Value, variant: &Variant, lang: Lang) {
    if !translates(variant, lang) {
        return;
    }
    walk(value, variant, lang);
}

/// Whether the variant names any province, house or itself differently in `lang`: if not,
/// nothing to do (the common case of a French reader of Westeros costs one scan).
fn translates(variant: &Variant, lang: Lang) -> bool {
    let has = |names: &[(Lang, String)]| names.iter().any(|(l, _)| *l == lang);
    has(&variant.translations)
        || variant.houses.iter().any(|h| has(&h.names))
        || variant
            .weather
            .as_ref()
            .is_some_and(|w| w.states.iter().any(|s| has(&s.names)))
        || variant
            .province_ids()
            .any(|p| has(&variant.province(p).names))
}

/// The name of the house or variant that `value` (under `key`) refers to, for `lang`: an
/// object of exactly `id` and `name` (as a house or variant reference is written).
fn reference_name(variant: &Variant, key: &str, value: &Value, lang: Lang) -> Option<String> {
    let Value::Object(reference) = value else {
        return None;
    };
    let id = match (reference.len(), reference.get("id"), reference.get("name")) {
        (2, Some(Value::String(id)), Some(Value::String(_))) => id,
        _ => return None,
    };
    match key {
        "house" => variant
            .houses
            .iter()
            .find(|h| h.id == *id)
            .map(|h| h.name_in(lang).to_string()),
        "variant" if *id == variant.id => Some(variant.name_in(lang).to_string()),
        "state" | "next_state" => variant
            .weather
            .as_ref()?
            .states
            .iter()
            .find(|s| s.id == *id)
            .map(|s| s.name_in(lang).to_string()),
        _ => None,
    }
}

fn walk(value: &mut Value, variant: &Variant, lang: Lang) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, variant, lang)),
        Value::Object(map) => {
            let province = match (map.get("id"), map.get("province"), map.get("name")) {
                (Some(Value::String(_)), Some(Value::String(p)), Some(Value::String(_))) => {
                    variant.province_by_id(p)
                }
                _ => None,
            };
            if let Some(p) = province {
                let name = variant.province(p).name_in(lang).to_string();
                map.insert("name".into(), Value::String(name));
            }
            for (key, v) in map.iter_mut() {
                if let Some(name) = reference_name(variant, key, v, lang)
                    && let Value::Object(reference) = v
                {
                    reference.insert("name".into(), Value::String(name));
                }
            }
            map.values_mut().for_each(|v| walk(v, variant, lang));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Variant;
    use crate::report::region_place;

    fn westeros() -> Variant {
        crate::map::load_variant("westeros").expect("the built-in Westeros loads")
    }

    #[test]
    fn english_readers_see_english_names_and_the_same_ids() {
        let variant = westeros();
        let cno = variant.province_by_id("cno").expect("Castle Black");
        let place = region_place(&variant, variant.province(cno).region);
        let data = serde_json::json!({ "orders": [{ "to": place, "note": "Château-Noir" }] });
        let en = localized(&data, &variant, Lang::En);
        assert_eq!(en["orders"][0]["to"]["name"], "Castle Black");
        assert_eq!(en["orders"][0]["to"]["id"], "cno");
        // Only places are renamed, not text that happens to hold a name.
        assert_eq!(en["orders"][0]["note"], "Château-Noir");
        let fr = localized(&data, &variant, Lang::Fr);
        assert_eq!(fr["orders"][0]["to"]["name"], "Château-Noir");
    }

    #[test]
    fn a_province_without_an_english_name_keeps_its_own() {
        let variant = westeros();
        let win = variant.province_by_id("win").expect("Winterfell");
        let place = region_place(&variant, variant.province(win).region);
        let en = localized(&place, &variant, Lang::En);
        assert_eq!(en["name"], "Winterfell");
    }
}
