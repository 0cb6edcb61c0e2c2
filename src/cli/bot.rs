//! `corbeau bot arena`: whole games between the built-in player, a player who always holds
//! and a random player, with the figures that tell them apart (docs/bot.md).

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde_json::json;

use crate::bot::Player;
use crate::bot::arena::{Played, last_year, play};
use crate::lang::Lang;
use crate::map::{HouseId, load_variant};
use crate::say;

use super::{Error, language};

#[derive(Debug, clap::Subcommand)]
pub(super) enum BotCommand {
    /// Play whole games between kinds of player (the bot, the yardstick, a holder, a random
    /// player); print each kind's centres at the end (95 % interval), wins, survivals, and
    /// the bot's time per decision.
    Arena(ArenaArgs),
}

/// A kind of player the arena seats, as `--kinds` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Kind {
    /// The built-in player, which looks ahead with the judge.
    Bot,
    /// The yardstick: the DumbBot-like player the bot must beat.
    Dumb,
    /// Holds every unit, never builds.
    Hold,
    /// Random legal orders.
    Random,
}

impl Kind {
    fn player(self) -> Player {
        match self {
            Kind::Bot => Player::Bot,
            Kind::Dumb => Player::Dumb,
            Kind::Hold => Player::Hold,
            Kind::Random => Player::Random,
        }
    }
}

#[derive(Debug, clap::Args)]
pub(super) struct ArenaArgs {
    /// A built-in variant (`westeros`, `classique`, `tempete`) or a variant file.
    #[arg(long, default_value = "westeros")]
    variant: String,
    /// Number of games.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// The kinds of player to seat, turned over the houses from one game to the next
    /// (a kind named twice counts once).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "bot,hold,random"
    )]
    kinds: Vec<Kind>,
    /// The seed of the first game; the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The figures as one JSON object.
    #[arg(long)]
    pub(super) json: bool,
    /// Language of the text: fr (default) or en; also CORBEAU_LANG.
    #[arg(long)]
    pub(super) lang: Option<Lang>,
}

pub(super) fn run(command: BotCommand) -> Result<(), Error> {
    match command {
        BotCommand::Arena(args) => arena(&args),
    }
}

/// The kind that plays house number `k` of the setup in game `g`: the kinds turn over the
/// houses from one game to the next, so that none keeps the same house.
fn kind_of(kinds: &[Player], g: u32, k: usize) -> Player {
    kinds
        .get((g as usize + k) % kinds.len().max(1))
        .copied()
        .unwrap_or(Player::Hold)
}

/// What one kind of player did over every seat it had.
#[derive(Default)]
struct Tally {
    centres: Vec<f64>,
    wins: u32,
    survived: u32,
}

impl Tally {
    fn mean(&self) -> f64 {
        self.centres.iter().sum::<f64>() / self.centres.len().max(1) as f64
    }

    /// The 95 % confidence interval of the mean (normal approximation).
    fn interval(&self) -> (f64, f64) {
        let n = self.centres.len() as f64;
        let mean = self.mean();
        if n < 2.0 {
            return (mean, mean);
        }
        let var = self.centres.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = 1.96 * (var / n).sqrt();
        (mean - half, mean + half)
    }
}

fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

fn arena(args: &ArenaArgs) -> Result<(), Error> {
    let lang = language(args.lang);
    let variant = load_variant(&args.variant).map_err(|e| Error::Input(e.message(lang)))?;
    let Some(setup) = variant.full_setup() else {
        return Err(Error::Input(say!(
            lang,
            "bot_arena.no_setup",
            variant = variant.id
        )));
    };
    if args.games == 0 {
        return Err(Error::Input(say!(lang, "bot_arena.no_games")));
    }
    let mut kinds: Vec<Player> = Vec::new();
    for kind in &args.kinds {
        if !kinds.contains(&kind.player()) {
            kinds.push(kind.player());
        }
    }
    if kinds.is_empty() {
        kinds = vec![Player::Bot, Player::Hold, Player::Random];
    }
    let kinds = kinds;
    let houses: Vec<HouseId> = setup.houses.clone();
    let start = Instant::now();
    let games: Vec<(u32, Played)> = (0..args.games)
        .into_par_iter()
        .filter_map(|g| {
            let seats: Vec<(HouseId, Player)> = houses
                .iter()
                .enumerate()
                .map(|(k, &h)| (h, kind_of(&kinds, g, k)))
                .collect();
            play(&variant, &seats, args.seed.wrapping_add(u64::from(g))).map(|p| (g, p))
        })
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    let mut tallies: Vec<Tally> = kinds.iter().map(|_| Tally::default()).collect();
    let (mut decisions, mut thinking, mut illegal) = (0u64, Duration::ZERO, 0u64);
    let mut timing = [(0u64, Duration::ZERO, Duration::ZERO); Player::ALL.len()];
    for (g, played) in &games {
        decisions += played.decisions;
        thinking += played.thinking;
        illegal += played.illegal;
        for (total, one) in timing.iter_mut().zip(&played.timing) {
            total.0 += one.0;
            total.1 += one.1;
            total.2 = total.2.max(one.2);
        }
        for (k, &h) in houses.iter().enumerate() {
            let kind = kind_of(&kinds, *g, k);
            let Some(tally) = kinds
                .iter()
                .position(|&p| p == kind)
                .and_then(|i| tallies.get_mut(i))
            else {
                continue;
            };
            let i = usize::from(h.0);
            tally.centres.push(played.centres[i] as f64);
            tally.wins += u32::from(played.winners.contains(&h));
            tally.survived += u32::from(played.centres[i] > 0 || played.units[i] > 0);
        }
    }
    let played = games.len();
    let rate = played as f64 / seconds.max(1e-9);
    let ms = thinking.as_secs_f64() * 1000.0 / decisions.max(1) as f64;
    if args.json {
        let by_kind: serde_json::Map<String, serde_json::Value> = kinds
            .iter()
            .zip(&tallies)
            .map(|(p, t)| {
                let (low, high) = t.interval();
                (
                    p.code().to_string(),
                    json!({
                        "centres": round(t.mean(), 2),
                        "ci95": [round(low, 2), round(high, 2)],
                        "seats": t.centres.len(),
                        "wins": t.wins,
                        "survivals": t.survived,
                    }),
                )
            })
            .collect();
        // Apart from the figures of play, which depend only on the seed.
        let times: serde_json::Map<String, serde_json::Value> = kinds
            .iter()
            .map(|p| {
                let (n, took, longest) = timing[p.index()];
                let ms = took.as_secs_f64() * 1000.0 / n.max(1) as f64;
                (
                    p.code().to_string(),
                    json!({
                        "decisions": n,
                        "ms_per_decision": round(ms, 4),
                        "ms_longest_decision": round(longest.as_secs_f64() * 1000.0, 3),
                    }),
                )
            })
            .collect();
        let value = json!({
            "variant": variant.id,
            "games": played,
            "seed": args.seed,
            "last_year": last_year(&variant),
            "kinds": by_kind,
            "times": times,
            "seconds": round(seconds, 3),
            "games_per_second": round(rate, 2),
            "decisions": decisions,
            "ms_per_decision": round(ms, 4),
            "illegal_orders": illegal,
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string())
        );
        return Ok(());
    }
    outln!(
        "{}",
        say!(
            lang,
            "bot_arena.header",
            games = played,
            variant = variant.id,
            seed = args.seed,
            last = last_year(&variant)
        )
    );
    for (p, t) in kinds.iter().zip(&tallies) {
        let (low, high) = t.interval();
        let kind = match p {
            Player::Bot => say!(lang, "bot_arena.kind_bot"),
            Player::Dumb => say!(lang, "bot_arena.kind_dumb"),
            Player::Hold => say!(lang, "bot_arena.kind_hold"),
            Player::Random => say!(lang, "bot_arena.kind_random"),
        };
        outln!(
            "{}",
            say!(
                lang,
                "bot_arena.kind",
                kind,
                centres = format!("{:.2}", t.mean()),
                low = format!("{low:.2}"),
                high = format!("{high:.2}"),
                wins = t.wins,
                survived = t.survived,
                seats = t.centres.len()
            )
        );
    }
    outln!(
        "{}",
        say!(
            lang,
            "bot_arena.speed",
            seconds = format!("{seconds:.2}"),
            rate = format!("{rate:.2}"),
            ms = format!("{ms:.3}"),
            decisions,
            illegal
        )
    );
    Ok(())
}
