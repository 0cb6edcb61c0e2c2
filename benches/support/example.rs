//! What the benches share: the bundled example turn.

/// The bundled example turn, split by house.
pub fn example_orders() -> Vec<(String, String)> {
    let text = include_str!("../../games/examples/westeros-printemps-298.txt");
    let mut orders: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let trimmed = line.split('#').next().unwrap_or("").trim();
        if let Some(house) = trimmed.strip_suffix(':') {
            orders.push((house.trim().to_lowercase(), String::new()));
        } else if !trimmed.is_empty()
            && let Some((_, text)) = orders.last_mut()
        {
            text.push_str(trimmed);
            text.push('\n');
        }
    }
    orders
}
