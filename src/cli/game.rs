//! `corbeau game …` and `corbeau player …`: the moderator's commands on stored games.

use serde_json::json;

use crate::game::calendar::{Weekdays, parse_time_of_day, parse_time_zone};
use crate::game::span::Span;
use crate::game::{
    Game, GameError, GameStatus, Moderator, NewGame, Press, Setting, SettingKind, Settings,
    Trigger, Vote, hash_secret, new_secret,
};
use crate::service::{Bug, ServiceError};
use std::rc::Rc;

use crate::game::{Action, Actor, Address, EndBy, Event, HouseKey, PhaseGuard};
use crate::lang::Lang;
use crate::map::{Variant, scope};
use crate::say;

use super::Error;
use super::context::Context;
use crate::report::game_text::{
    Audience, ending_text, game_text, record_results_or_builtin, status_word,
};
use crate::report::summary::{centres_by_year, summary_text};

#[derive(Debug, clap::Subcommand)]
pub(super) enum GameCommand {
    /// Create a game (forming: add its players, then start it).
    New(Box<NewArgs>),
    /// List the games.
    List,
    /// Show a game: phase, deadline, houses, who has ordered.
    Show { game: String },
    /// Start a game whose every house has a player: the first deadline is set.
    Start { game: String },
    /// Stop the deadlines (orders are still taken).
    Pause { game: String },
    /// Restart the deadlines: the time that was left is given back.
    Resume { game: String },
    /// Move the deadline later (`12h`, `1j`), within the game's cap on extensions.
    Extend { game: String, by: String },
    /// Adjudicate the current phase now (missing orders hold).
    Process {
        game: String,
        /// Only if this is the current phase (`printemps 299 mouvements`).
        #[arg(long)]
        phase: Option<String>,
        /// Show what would happen; store nothing.
        #[arg(long)]
        preview: bool,
    },
    /// Undo the last processed phase: its orders come back, with a new deadline.
    Rollback {
        game: String,
        /// Only if the phase to undo is this one.
        #[arg(long)]
        phase: Option<String>,
    },
    /// End the game: a win, a draw, a concession or abandoned.
    End(EndArgs),
    /// Replace the position (docs/position-format.md); kept in the audit trail.
    Edit {
        game: String,
        /// The new position file (`-`: standard input).
        position: std::path::PathBuf,
        /// Why, for the audit trail.
        #[arg(long)]
        reason: String,
    },
    /// The audit trail: every moderator action and judge decision.
    Audit { game: String },
    /// The game's summary: supply centres at the end of each year, the players of each
    /// house (those who left too), the result. What `SUMMARY` answers by mail.
    Summary { game: String },
    /// Move the game to a new version of its variant (a built-in name or a variant
    /// file, read now): refused unless it has the same houses and reads the game's
    /// position, stored orders and history.
    Variant { game: String, variant: String },
    /// Allow or forbid observers (`oui`/`non`, `yes`/`no`); forbidding ends the current
    /// observers and the requests waiting for confirmation.
    Observers {
        game: String,
        // A bool argument is a flag to clap unless told to take a value.
        #[arg(value_parser = parse_allowed, action = clap::ArgAction::Set, required = true)]
        allowed: bool,
    },
    /// Turn the board's picture in the game's mails on or off (`oui`/`non`, `yes`/`no`):
    /// off for players on slow links; the texts stay whole. With `--house`, only in that
    /// house's player's own mails (as the player's `SET PICTURES off` by mail).
    Pictures {
        game: String,
        #[arg(value_parser = parse_allowed, action = clap::ArgAction::Set, required = true)]
        on: bool,
        /// Only this house's player's mails.
        #[arg(long)]
        house: Option<String>,
    },
    /// Change settings of a game already created: all the options given, or none if one
    /// is refused (docs/deadlines.md, "Changing the settings of a game").
    Set(Box<SetArgs>),
}

#[derive(Debug, clap::Args)]
pub(super) struct SetArgs {
    game: String,
    #[command(flatten)]
    values: SetValues,
}

/// The settings `game set` changes: at least one. (A group of its own, as for `game end`:
/// on `SetArgs` the game would be one of its members, and `game set GAME` would pass.)
#[derive(Debug, clap::Args)]
#[group(id = "setting", required = true, multiple = true)]
pub(super) struct SetValues {
    /// How long to wait past the deadline for missing orders (`6h`, `0`), at most 7 days.
    #[arg(long, group = "setting")]
    grace: Option<String>,
    /// full, broadcast, grey or none.
    #[arg(long, group = "setting")]
    press: Option<String>,
    /// Reminders before the deadline (`1j,2h`; `none`).
    #[arg(long, group = "setting")]
    reminders: Option<String>,
    /// Days deadlines may fall on from now on (`lun-ven`, `sat,sun`, `all`).
    #[arg(long, group = "setting")]
    days: Option<String>,
    /// The current phase's deadline, in the game's time zone (`"2026-12-01 20:00"`).
    #[arg(long, group = "setting")]
    deadline: Option<String>,
    /// Whether WHOGAME and SUMMARY show the players' addresses to anyone (`shown`,
    /// `hidden`).
    #[arg(long, group = "setting")]
    addresses: Option<String>,
    /// Whether the mail that ends the game names the authors of grey press (`shown`,
    /// `hidden`).
    #[arg(long, group = "setting")]
    grey_authors: Option<String>,
    /// Whether strangers may take free seats by mail (`yes`/`no`).
    #[arg(long, group = "setting")]
    open: Option<String>,
    /// Whether an open game starts by itself when its last seat is taken (`yes`/`no`).
    #[arg(long, group = "setting")]
    start_when_full: Option<String>,
    /// Whether the built-in player plays houses in civil disorder and vacant
    /// seats (`on`/`off`); docs/bot.md, "Its place in games".
    #[arg(long, group = "setting")]
    bots: Option<String>,
    /// The rulebook edition (`2023`, `1982`, `1971`, `dptg`); only before the start
    /// (docs/rules.md, "Rule editions").
    #[arg(long, group = "setting")]
    rules: Option<String>,
    /// Phases a house may miss in a row before it is in civil disorder (`0`: never;
    /// at most 12), from the next deadline on.
    #[arg(long, group = "setting")]
    civil_disorder_after: Option<String>,
    /// The reliability (percent of phases due that a player ordered, across this
    /// judge's games) an address needs to take a seat by mail; `0`: none. The players
    /// already seated keep their seats (docs/email.md, "Records").
    #[arg(long, group = "setting")]
    min_reliability: Option<String>,
}

#[derive(Debug, clap::Args)]
pub(super) struct NewArgs {
    /// Short name: lowercase letters, digits, dashes (`westeros-1`).
    game: String,
    /// A built-in variant (`westeros`, `classique`, `tempete`) or a variant file.
    #[arg(long, default_value = "westeros")]
    variant: String,
    /// Number of players (3 to 7 on westeros, 3 or 4 on tempete): picks the setup; by
    /// default the variant's largest.
    #[arg(long)]
    players: Option<u8>,
    /// A strength-1 garrison in each home centre of each house in play, as the Storm of
    /// Swords expansion allows on the base board (docs/rules.md, "Garrisons").
    #[arg(long)]
    garrisons: bool,
    /// The game's full name, for mails.
    #[arg(long)]
    name: Option<String>,
    /// The moderator's address (a secret is made for acting by mail).
    #[arg(long)]
    moderator: Option<String>,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// full, broadcast, grey or none.
    #[arg(long, value_parser = parse_press)]
    press: Option<Press>,
    /// Phases missed in a row before a house is in civil disorder (0: never).
    #[arg(long)]
    civil_disorder_after: Option<u32>,
    /// Supply centres that win (default: the setup's).
    #[arg(long)]
    victory_centres: Option<u16>,
    /// After the winter of this year the leader wins (default: the variant's).
    #[arg(long)]
    last_year: Option<i32>,
    /// Language of the game's results and notices (fr, en).
    #[arg(long)]
    game_lang: Option<Lang>,
    /// Nobody may observe the game (`game observers GAME yes` allows it later).
    #[arg(long)]
    no_observers: bool,
    /// Mails carry no picture of the board (`game pictures GAME yes` turns them on).
    #[arg(long)]
    no_pictures: bool,
    /// Free seats may be taken by mail (`JOIN`), vacant ones at once
    /// (`TAKEOVER`); docs/email.md, "Joining a game".
    #[arg(long)]
    open: bool,
    /// Whether the game starts by itself when its last seat is taken (default: yes).
    #[arg(long, value_parser = parse_allowed, value_name = "YES|NO")]
    start_when_full: Option<bool>,
    /// The built-in player plays houses in civil disorder and vacant seats
    /// (docs/bot.md, "Its place in games").
    #[arg(long)]
    bots: bool,
    /// The rulebook edition: 2023 (the default), 1982, 1971 or dptg (docs/rules.md,
    /// "Rule editions").
    #[arg(long)]
    rules: Option<String>,
}

/// When deadlines fall (docs/deadlines.md).
#[derive(Debug, clap::Args)]
pub(super) struct ScheduleArgs {
    /// Time zone of the deadlines (`Europe/Paris`).
    #[arg(long)]
    zone: Option<String>,
    /// Length of a movement phase (`2j`, `48h`).
    #[arg(long)]
    movement: Option<String>,
    #[arg(long)]
    retreat: Option<String>,
    #[arg(long)]
    adjustment: Option<String>,
    /// Deadlines at this time of day (`20h`, `20:00`, `none`).
    #[arg(long)]
    at: Option<String>,
    /// Days a deadline may fall on (`lun-ven`, `mon,wed,fri`, `all`).
    #[arg(long)]
    days: Option<String>,
    /// How long to wait past the deadline for missing orders.
    #[arg(long)]
    grace: Option<String>,
    /// Reminders before the deadline (`1j,2h`; `none`).
    #[arg(long)]
    reminders: Option<String>,
    /// How far players' absences may push one deadline.
    #[arg(long)]
    max_absence: Option<String>,
    /// Total extension allowed on one phase.
    #[arg(long)]
    max_extension: Option<String>,
}

#[derive(Debug, clap::Args)]
pub(super) struct EndArgs {
    game: String,
    #[command(flatten)]
    result: EndResult,
}

/// How a game ends: exactly one of these. (A group of its own: a group on `EndArgs` took
/// the game as one of its members, so that `game end GAME --draw` was refused and `game
/// end GAME` alone abandoned the game.)
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false, id = "result")]
pub(super) struct EndResult {
    /// These houses win (several: a shared victory).
    #[arg(long, num_args = 1.., group = "result")]
    win: Vec<String>,
    /// A draw between every house still in the game.
    #[arg(long, group = "result")]
    draw: bool,
    /// Every other house concedes to this one.
    #[arg(long, group = "result")]
    concede: Option<String>,
    /// Stop the game without a result.
    #[arg(long, group = "result")]
    abandon: bool,
}

#[derive(Debug, clap::Subcommand)]
pub(super) enum PlayerCommand {
    /// Seat a player in a house (a secret is made unless given).
    Add(SeatArgs),
    /// Give a house to a new player (the old secret stops working).
    Replace(SeatArgs),
    /// Leave a house without a player.
    Remove { game: String, house: String },
    /// A player's own settings: `--zone America/New_York` shows every deadline of
    /// their mails in that zone, the game's beside it (`--zone game`: the game's again).
    Set {
        game: String,
        house: String,
        #[arg(long)]
        zone: String,
    },
    /// Declare a house ready for early processing (or not, with --not).
    Ready {
        game: String,
        house: String,
        #[arg(long)]
        not: bool,
    },
    /// A house's vote: `draw`, `draw HOUSE HOUSE…` (a draw shared by these houses only),
    /// `concede HOUSE`, or `none`.
    Vote {
        game: String,
        house: String,
        #[arg(num_args = 1.., required = true)]
        vote: Vec<String>,
    },
    /// Declare a player's absence (`2026-12-24` `2026-12-27 20:00`): deadlines move past it.
    Absence {
        game: String,
        house: String,
        from: String,
        to: String,
    },
    // Joining a game.
    /// Give a house to the address that asked for it (`TAKEOVER`); its welcome, with
    /// the secret, is mailed to it.
    Approve {
        game: String,
        house: String,
        /// The address that asked, when several ask for the house.
        address: Option<String>,
    },
    /// Refuse the requests for a house (or the one of the address named); each address
    /// that asked is told.
    Reject {
        game: String,
        house: String,
        address: Option<String>,
    },
}

#[derive(Debug, clap::Args)]
pub(super) struct SeatArgs {
    game: String,
    house: String,
    address: String,
    /// The player's secret (default: a new random one, printed once).
    #[arg(long)]
    secret: Option<String>,
    /// The player's language (fr, en): their mails and answers; default: the game's.
    /// (The global `--lang` is the language this command answers the moderator in.)
    #[arg(long, value_name = "LANG")]
    player_lang: Option<Lang>,
    /// Also mail the player their welcome, as `AJOUTER`/`REMPLACER` by mail does: the
    /// secret, the house's units and an example order, the board's picture, and for a
    /// replacement the game's last results (docs/email.md, "Pictures").
    #[arg(long)]
    welcome: bool,
}

fn parse_press(s: &str) -> Result<Press, String> {
    s.parse()
        .map_err(|_| "full, broadcast, grey or none".to_string())
}

fn parse_allowed(s: &str) -> Result<bool, String> {
    match crate::map::fold(s).as_str() {
        "oui" | "yes" | "on" | "allow" | "allowed" | "permis" => Ok(true),
        "non" | "no" | "off" | "forbid" | "forbidden" | "interdits" => Ok(false),
        _ => Err("oui/yes or non/no".into()),
    }
}

pub(super) fn run_game(ctx: &Context, command: GameCommand) -> Result<(), Error> {
    let now = ctx.now;
    match command {
        GameCommand::New(args) => new_game(ctx, *args),
        GameCommand::List => {
            let games = ctx.service.each_game().map_err(|e| ctx.fail(e))?;
            let rows: Vec<_> = games
                .iter()
                .map(|(id, g)| match g {
                    Ok(g) => summary(ctx, g),
                    Err(e) => json!({"id": id, "error": e.message(ctx.lang)}),
                })
                .collect();
            ctx.print(&rows, || {
                if games.is_empty() {
                    return say!(ctx.lang, "cli_game.no_games_corbeau_game_new");
                }
                games
                    .iter()
                    .map(|(id, g)| match g {
                        Err(e) => say!(
                            ctx.lang,
                            "cli_game.unreadable",
                            id,
                            reason = e.message(ctx.lang)
                        ),
                        Ok(g) => format!(
                            "{:<20} {:<10} {:<12} {:<28} {}\n",
                            g.id(),
                            g.variant(),
                            status_word(g.status(), ctx.lang),
                            // In the reader's words, as `--phase` reads them (v1 wrote
                            // English in a French list, and unpadded).
                            crate::report::phase_words(g.phase(), ctx.lang, "phase.plain"),
                            g.deadline_text(ctx.lang)
                        ),
                    })
                    .collect()
            })
        }
        GameCommand::Show { game } => {
            let g = ctx.service.load(&game).map_err(|e| ctx.fail(e))?;
            let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
            // The moderator decides among the requests knowing who asks: each address's
            // history, read from every game of the judge.
            let games = ctx.service.games().map_err(|e| ctx.fail(e))?;
            let histories: Vec<crate::game::AskerHistory> = g
                .seat_requests()
                .iter()
                .map(|r| crate::game::AskerHistory::of(games.iter(), &r.address))
                .collect();
            ctx.print(&public_game(&g, &variant), || {
                let mut text = game_text(&g, &variant, ctx.lang);
                text.push_str(&crate::report::game_text::seat_requests_text(
                    &g, &variant, &histories, ctx.lang,
                ));
                text
            })
        }
        GameCommand::Start { game } => {
            let g = moderate(ctx, &game, Action::Start)?;
            done(ctx, &g, &say!(ctx.lang, "cli_game.game_started"))
        }
        GameCommand::Pause { game } => {
            let g = moderate(ctx, &game, Action::Pause)?;
            done(ctx, &g, &say!(ctx.lang, "cli_game.game_paused"))
        }
        GameCommand::Resume { game } => {
            let g = moderate(ctx, &game, Action::Resume)?;
            done(ctx, &g, &say!(ctx.lang, "cli_game.game_resumed"))
        }
        GameCommand::Extend { game, by } => {
            let by: Span = by.parse().map_err(|e| ctx.fail(GameError::Calendar(e)))?;
            let g = moderate(ctx, &game, Action::Extend(by))?;
            done(ctx, &g, &say!(ctx.lang, "cli_game.deadline_extended"))
        }
        GameCommand::Process {
            game,
            phase,
            preview,
        } => {
            if preview {
                let record = ctx.service.preview(&game, now).map_err(|e| ctx.fail(e))?;
                let g = ctx.service.load(&game).map_err(|e| ctx.fail(e))?;
                return print_record(ctx, &g, &record, true);
            }
            let expected = guard(ctx, phase.as_deref())?;
            let (g, record) = ctx
                .service
                .process(&game, &Actor::Moderator, Trigger::Moderator, expected, now)
                .map_err(|e| ctx.fail(e))?;
            print_record(ctx, &g, &record, false)
        }
        GameCommand::Rollback { game, phase } => {
            let expected = guard(ctx, phase.as_deref())?;
            let (g, record) = ctx
                .service
                .rollback(&game, &Actor::Moderator, expected, now)
                .map_err(|e| match e {
                    // The guard names the phase to undo, not the one being played.
                    ServiceError::Game(GameError::WrongPhase { given, current }) => {
                        let last = crate::report::game_text::phase_text(current, ctx.lang);
                        Error::Input(say!(
                            ctx.lang,
                            "cli_game_more.last_phase_played",
                            last,
                            given
                        ))
                    }
                    e => ctx.fail(e),
                })?;
            let message = format!(
                "{} {}",
                say!(ctx.lang, "cli_game.phase_rolled_back"),
                crate::report::game_text::phase_text(record.phase, ctx.lang)
            );
            done(ctx, &g, &message)
        }
        GameCommand::End(args) => end_game(ctx, args),
        GameCommand::Edit {
            game,
            position,
            reason,
        } => {
            let text = super::read_input(&position, ctx.lang)?;
            let g = moderate(
                ctx,
                &game,
                Action::Edit {
                    position: text,
                    reason,
                },
            )?;
            done(ctx, &g, &say!(ctx.lang, "cli_game.position_edited"))
        }
        GameCommand::Observers { game, allowed } => {
            let g = moderate(ctx, &game, Action::Observers { allowed })?;
            let message = if allowed {
                say!(ctx.lang, "cli_game.observers_allowed")
            } else {
                say!(ctx.lang, "cli_game.observers_forbidden_the_current_ones")
            };
            done(ctx, &g, &message)
        }
        GameCommand::Variant { game, variant } => {
            let (g, old) = ctx
                .service
                .set_variant(&game, &variant, "moderator", now)
                .map_err(|e| ctx.fail(e))?;
            let message = format!(
                "{} {} ({}) -> {} ({})",
                say!(ctx.lang, "cli_game.variant"),
                old.name,
                old.hash.short(),
                g.variant().name,
                g.variant().hash.short()
            );
            done(ctx, &g, &message)
        }
        GameCommand::Pictures { game, on, house } => {
            let key = house
                .as_deref()
                .map(|h| self::house(ctx, &game, h))
                .transpose()?;
            let action = Action::Pictures {
                house: key.clone(),
                on,
            };
            let g = moderate(ctx, &game, action)?;
            let message = match (key, on) {
                (None, true) => say!(ctx.lang, "cli_game.mails_carry_the_board_s"),
                (None, false) => say!(ctx.lang, "cli_game.mails_carry_no_picture_any"),
                (Some(house), on) => say!(ctx.lang, "cli_game.player_pictures", house, on),
            };
            done(ctx, &g, &message)
        }
        GameCommand::Set(args) => set(ctx, *args),
        GameCommand::Summary { game } => {
            let g = ctx.service.load(&game).map_err(|e| ctx.fail(e))?;
            let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
            let records = ctx.service.history(&game).map_err(|e| ctx.fail(e))?;
            ctx.print(&summary_json(&g, &variant, &records), || {
                summary_text(&g, &variant, &records, ctx.lang)
            })
        }
        GameCommand::Audit { game } => {
            let g = ctx.service.load(&game).map_err(|e| ctx.fail(e))?;
            let entries = ctx.service.audit_trail(&game).map_err(|e| ctx.fail(e))?;
            let zone = g.settings().schedule.time_zone;
            ctx.print(&entries, || {
                entries
                    .iter()
                    .map(|a| {
                        // Worded now, in the reader's language; the data kept with the
                        // lines (an edit's positions, a broadcast) is left to `--json`,
                        // and an entry older than the lines shows its first line.
                        let mut said: Vec<String> =
                            a.lines.iter().map(|l| l.say(ctx.lang, zone)).collect();
                        if said.is_empty() {
                            said.push(a.detail.lines().next().unwrap_or("").to_string());
                        }
                        let head = format!(
                            "{}  {:<12} {:<14} ",
                            a.at.format("%Y-%m-%d %H:%M:%S"),
                            a.actor,
                            a.action
                        );
                        let indent = " ".repeat(head.chars().count());
                        said.iter()
                            .enumerate()
                            .map(|(i, line)| {
                                let lead = if i == 0 { head.as_str() } else { &indent };
                                format!("{lead}{line}\n")
                            })
                            .collect::<String>()
                    })
                    .collect()
            })
        }
    }
}

fn new_game(ctx: &Context, args: NewArgs) -> Result<(), Error> {
    let mut settings = Settings::default();
    apply_schedule(&mut settings, &args.schedule).map_err(|e| ctx.fail(e))?;
    if let Some(press) = args.press {
        settings.press = press;
    }
    if let Some(n) = args.civil_disorder_after {
        settings.civil_disorder_after = n;
    }
    settings.victory_centres = args.victory_centres;
    settings.last_year = args.last_year;
    settings.lang = args.game_lang.unwrap_or(ctx.lang);
    settings.observers = !args.no_observers;
    settings.pictures = !args.no_pictures;
    settings.open = args.open;
    if let Some(on) = args.start_when_full {
        settings.start_when_full = on;
    }
    settings.bots = args.bots;
    settings.garrisons = args.garrisons;
    if let Some(rules) = &args.rules {
        settings.rules = crate::game::read_rules(rules).map_err(|e| ctx.fail(e))?;
    }
    let (moderator, secret) = match &args.moderator {
        Some(address) => {
            let address = crate::game::check_address(address).map_err(|e| ctx.fail(e))?;
            if ctx.config.judge.is_own(&address) {
                return Err(ctx.fail(GameError::JudgeAddress(address)));
            }
            let secret = new_secret().map_err(|e| ctx.fail(e))?;
            let hash = hash_secret(&secret).map_err(|e| ctx.fail(e))?;
            (
                Some(Moderator {
                    address,
                    secret: hash,
                }),
                Some(secret),
            )
        }
        None => (None, None),
    };
    // A variant that cannot be read is refused with its reason by the creation itself.
    let players = args.players.unwrap_or_else(|| {
        crate::map::load_variant(&args.variant)
            .ok()
            .and_then(|v| v.full_setup().map(|s| s.players))
            .unwrap_or(7)
    });
    let new = NewGame {
        id: args.game,
        name: args.name,
        variant: args.variant,
        players,
        settings,
        moderator,
    };
    let game = ctx
        .service
        .create(new, "moderator", ctx.now)
        .map_err(|e| ctx.fail(e))?;
    let houses: Vec<&str> = game.seats().iter().map(|s| s.house().as_str()).collect();
    let value = json!({"game": game.id(), "houses": houses, "moderator_secret": secret});
    ctx.print(&value, || {
        let mut text = format!(
            "{} {} ({} {}, {})\n{} {}\n",
            say!(ctx.lang, "cli_game.game_created"),
            game.id(),
            game.players(),
            say!(ctx.lang, "cli_game.players"),
            game.variant(),
            say!(ctx.lang, "cli_game.houses"),
            houses.join(", ")
        );
        if let Some(secret) = &secret {
            text.push_str(&format!(
                "{} {secret}\n",
                say!(ctx.lang, "cli_game.moderator_s_secret_not_kept")
            ));
        }
        text.push_str(&say!(ctx.lang, "cli_game.next_corbeau_player_add_game"));
        text
    })
}

fn apply_schedule(settings: &mut Settings, args: &ScheduleArgs) -> Result<(), GameError> {
    let s = &mut settings.schedule;
    let span = |text: &Option<String>, into: &mut Span| -> Result<(), GameError> {
        if let Some(t) = text {
            *into = t.parse()?;
        }
        Ok(())
    };
    if let Some(zone) = &args.zone {
        s.time_zone = parse_time_zone(zone)?;
    }
    span(&args.movement, &mut s.movement)?;
    span(&args.retreat, &mut s.retreat)?;
    span(&args.adjustment, &mut s.adjustment)?;
    span(&args.grace, &mut s.grace)?;
    span(&args.max_absence, &mut s.max_absence)?;
    span(&args.max_extension, &mut s.max_extension)?;
    if let Some(at) = &args.at {
        s.time_of_day = match crate::map::fold(at).as_str() {
            "none" | "aucune" | "aucun" => None,
            _ => Some(parse_time_of_day(at)?),
        };
    }
    if let Some(days) = &args.days {
        s.weekdays = days.parse::<Weekdays>()?;
    }
    if let Some(reminders) = &args.reminders {
        s.reminders = match crate::map::fold(reminders).as_str() {
            "none" | "aucun" | "aucune" => Vec::new(),
            _ => reminders
                .split(',')
                .map(|r| r.trim().parse())
                .collect::<Result<_, _>>()?,
        };
    }
    s.validate()?;
    Ok(())
}

/// `game set`: every setting given read first, then applied in one transaction, the
/// deadline last; what changed is said in the operator's language.
fn set(ctx: &Context, args: SetArgs) -> Result<(), Error> {
    let values = &args.values;
    let given = [
        (SettingKind::Press, &values.press),
        (SettingKind::Grace, &values.grace),
        (SettingKind::Reminders, &values.reminders),
        (SettingKind::Days, &values.days),
        (SettingKind::Addresses, &values.addresses),
        (SettingKind::GreyAuthors, &values.grey_authors),
        (SettingKind::Deadline, &values.deadline),
        (SettingKind::Open, &values.open),
        (SettingKind::StartWhenFull, &values.start_when_full),
        (SettingKind::Bots, &values.bots),
        (SettingKind::Rules, &values.rules),
        (SettingKind::CivilDisorder, &values.civil_disorder_after),
        (SettingKind::MinReliability, &values.min_reliability),
    ];
    let settings = given
        .into_iter()
        .filter_map(|(kind, value)| value.as_ref().map(|v| Setting::read(kind, v)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ctx.fail(e))?;
    let mut session = ctx.service.session(&args.game).map_err(|e| ctx.fail(e))?;
    let mut changes = Vec::new();
    for setting in settings {
        let events = session
            .execute(&Actor::Moderator, Action::Set(setting), ctx.now)
            .map_err(|e| ctx.fail(e))?;
        changes.extend(events.into_iter().filter_map(|e| match e {
            Event::SettingChanged { change } => Some(change),
            _ => None,
        }));
    }
    let g = session
        .commit("moderator", "set", Default::default(), ctx.now)
        .map_err(|e| ctx.fail(e))?;
    let zone = g.settings().schedule.time_zone;
    let said: Vec<String> = changes.iter().map(|c| c.say(ctx.lang, zone)).collect();
    let value = json!({
        "game": g.id(),
        "status": g.status(),
        "deadline": g.deadline(),
        "changes": changes,
        "message": said,
    });
    ctx.print(&value, || {
        let mut text: String = said.iter().map(|s| format!("{}: {s}\n", g.id())).collect();
        if g.status() != GameStatus::Finished {
            let deadline = g.deadline_text(ctx.lang);
            text.push_str(&say!(ctx.lang, "game_show.deadline", deadline));
            text.push('\n');
        }
        text
    })
}

fn end_game(ctx: &Context, args: EndArgs) -> Result<(), Error> {
    let result = args.result;
    let by = if !result.win.is_empty() {
        EndBy::Win(result.win)
    } else if result.draw {
        EndBy::Draw
    } else if let Some(house) = result.concede {
        EndBy::Concede(house)
    } else {
        EndBy::Abandon
    };
    let g = ctx.service.load(&args.game).map_err(|e| ctx.fail(e))?;
    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
    let by = by
        .read(&mut |written| g.house_id(&variant, written))
        .map_err(|e| ctx.fail(e))?;
    let g = moderate(ctx, &args.game, Action::End(by))?;
    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
    let text = g
        .ending()
        .as_ref()
        .map(|e| ending_text(e, &variant, ctx.lang))
        .unwrap_or_default();
    done(ctx, &g, &text)
}

pub(super) fn run_player(ctx: &Context, command: PlayerCommand) -> Result<(), Error> {
    match command {
        PlayerCommand::Add(args) => seat(ctx, args, false),
        PlayerCommand::Replace(args) => seat(ctx, args, true),
        PlayerCommand::Remove { game, house } => {
            let house = self::house(ctx, &game, &house)?;
            let g = moderate(ctx, &game, Action::Remove { house })?;
            done(ctx, &g, &say!(ctx.lang, "cli_game.player_removed"))
        }
        PlayerCommand::Set { game, house, zone } => {
            let house = self::house(ctx, &game, &house)?;
            let zone = crate::game::read_zone(&zone).map_err(|e| ctx.fail(e))?;
            let g = moderate(ctx, &game, Action::Zone { house, zone })?;
            let game_zone = g.settings().schedule.time_zone.name().to_string();
            let message = say!(
                ctx.lang,
                "zone.set",
                zone = zone.map(|z| z.name().to_string()),
                game_zone
            );
            done(ctx, &g, &message)
        }
        PlayerCommand::Ready { game, house, not } => {
            let house = self::house(ctx, &game, &house)?;
            let g = moderate(ctx, &game, Action::Ready { house, ready: !not })?;
            done(
                ctx,
                &g,
                &if not {
                    say!(ctx.lang, "cli_game.not_ready")
                } else {
                    say!(ctx.lang, "cli_game.ready")
                },
            )
        }
        PlayerCommand::Vote { game, house, vote } => {
            let house = self::house(ctx, &game, &house)?;
            let vote = match parse_vote(&vote, ctx.lang)? {
                Some(Vote::Concede(to)) => Some(Vote::Concede(self::house(ctx, &game, &to)?)),
                Some(Vote::Draw) => Some(Vote::Draw),
                Some(Vote::DrawWith(houses)) => Some(Vote::DrawWith(
                    houses
                        .iter()
                        .map(|h| self::house(ctx, &game, h))
                        .collect::<Result<_, _>>()?,
                )),
                None => None,
            };
            let g = moderate(ctx, &game, Action::Vote { house, vote })?;
            let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
            let text = match &g.ending() {
                Some(ending) => ending_text(ending, &variant, ctx.lang),
                None => say!(ctx.lang, "cli_game.vote_recorded"),
            };
            done(ctx, &g, &text)
        }
        PlayerCommand::Absence {
            game,
            house,
            from,
            to,
        } => {
            let house = self::house(ctx, &game, &house)?;
            let g = moderate(ctx, &game, Action::Absence { house, from, to })?;
            done(ctx, &g, &say!(ctx.lang, "cli_game.absence_recorded"))
        }
        PlayerCommand::Approve {
            game,
            house,
            address,
        } => approve(ctx, &game, &house, address),
        PlayerCommand::Reject {
            game,
            house,
            address,
        } => {
            let house = self::house(ctx, &game, &house)?;
            let g = moderate(
                ctx,
                &game,
                Action::Reject {
                    house,
                    address: address.map(Address::from),
                },
            )?;
            done(ctx, &g, &say!(ctx.lang, "join.cli_rejected"))
        }
    }
}

/// A vote as written (the house conceded to, as written).
fn parse_vote(words: &[String], lang: Lang) -> Result<Option<Vote<String>>, Error> {
    let first = words
        .first()
        .map(|w| crate::map::fold(w))
        .unwrap_or_default();
    match (first.as_str(), words.get(1)) {
        ("draw" | "nul" | "nulle", None) => Ok(Some(Vote::Draw)),
        ("draw" | "nul" | "nulle", Some(_)) => Ok(Some(Vote::DrawWith(
            words.get(1..).unwrap_or_default().to_vec(),
        ))),
        ("concede" | "conceder" | "concession", Some(h)) if words.len() == 2 => {
            Ok(Some(Vote::Concede(h.clone())))
        }
        ("none" | "aucun" | "retirer", None) => Ok(None),
        _ => Err(Error::Input(
            GameError::BadVote(words.join(" ")).message(lang),
        )),
    }
}

fn seat(ctx: &Context, args: SeatArgs, replace: bool) -> Result<(), Error> {
    let secret = match &args.secret {
        Some(s) if s.trim().len() >= 6 => s.trim().to_string(),
        Some(_) => {
            return Err(Error::Input(say!(
                ctx.lang,
                "cli_game.a_secret_needs_at_least"
            )));
        }
        None => new_secret().map_err(|e| ctx.fail(e))?,
    };
    // The judge's own address would make it write to itself (docs/email.md).
    if ctx.config.judge.is_own(&args.address) {
        return Err(ctx.fail(GameError::JudgeAddress(args.address.trim().into())));
    }
    let action = Action::Seat {
        house: house(ctx, &args.game, &args.house)?,
        address: args.address.as_str().into(),
        secret: Some(secret.clone()),
        lang: args.player_lang,
        replace,
    };
    let name = action.name();
    // The seat and its welcome mail in one transaction: never a player seated whose
    // welcome is lost, nor a welcome for a seat that failed.
    let mut session = ctx.service.session(&args.game).map_err(|e| ctx.fail(e))?;
    let events = session
        .execute(&Actor::Moderator, action, ctx.now)
        .map_err(|e| ctx.fail(e))?;
    let mut extra = crate::service::Effects::default();
    let mut seated = None;
    for event in &events {
        let (Event::Seated { house, lang, .. }, Some(welcome)) =
            (event, crate::mail::board::Welcome::of(event))
        else {
            continue;
        };
        seated = Some((house.clone(), *lang));
        if args.welcome {
            let mail = crate::mail::board::welcome_mail(
                &ctx.service,
                &ctx.config,
                session.game(),
                session.variant(),
                &welcome,
                ctx.now,
            )
            .map_err(|e| ctx.fail(e))?;
            extra.mails.push(mail.seal());
        }
    }
    let g = session
        .commit("moderator", name, extra, ctx.now)
        .map_err(|e| ctx.fail(e))?;
    let Some((house_id, lang)) = seated else {
        return Err(ctx.fail(Bug::SeatWithoutEvent));
    };
    let value = json!({
        "game": g.id(),
        "house": house_id,
        "address": args.address,
        "lang": lang.code(),
        "secret": secret
    });
    ctx.print(&value, || {
        // The player's language is said: a moderator who meant `--lang` for it sees
        // that it set the language of this answer only.
        format!(
            "{} {} → {}\n{}\n{} {secret}\n",
            g.id(),
            house_id,
            args.address,
            say!(ctx.lang, "cli_game.player_lang", lang = lang.code()),
            if args.welcome {
                say!(ctx.lang, "cli_game.player_s_secret_sent_in")
            } else {
                say!(ctx.lang, "cli_game.player_s_secret_send_it")
            }
        )
    })
}

/// `player approve`: the house goes to the address that asked, its welcome mailed in the
/// same transaction (the secret reaches the player by no other way).
fn approve(ctx: &Context, game: &str, house: &str, address: Option<String>) -> Result<(), Error> {
    let house = self::house(ctx, game, house)?;
    let mut session = ctx.service.session(game).map_err(|e| ctx.fail(e))?;
    let events = session
        .execute(
            &Actor::Moderator,
            Action::Approve {
                house,
                address: address.map(Address::from),
            },
            ctx.now,
        )
        .map_err(|e| ctx.fail(e))?;
    let mut extra = crate::service::Effects::default();
    let mut seated = None;
    for event in &events {
        let (Event::Seated { house, address, .. }, Some(welcome)) =
            (event, crate::mail::board::Welcome::of(event))
        else {
            continue;
        };
        seated = Some((house.clone(), address.clone()));
        let mail = crate::mail::board::welcome_mail(
            &ctx.service,
            &ctx.config,
            session.game(),
            session.variant(),
            &welcome,
            ctx.now,
        )
        .map_err(|e| ctx.fail(e))?;
        extra.mails.push(mail.seal());
    }
    let g = session
        .commit("moderator", "approve", extra, ctx.now)
        .map_err(|e| ctx.fail(e))?;
    let Some((house, address)) = seated else {
        return Err(ctx.fail(Bug::SeatWithoutEvent));
    };
    let value = json!({ "game": g.id(), "house": house, "address": address });
    ctx.print(&value, || {
        format!(
            "{} {house} → {address}\n{}\n",
            g.id(),
            say!(ctx.lang, "cli_game.player_s_secret_sent_in")
        )
    })
}

/// A moderator's action on a game, stored with its audit line.
/// The house of a game as the command line wrote it (an id, a name, a close
/// misspelling), read against the game.
pub(super) fn house(ctx: &Context, game: &str, written: &str) -> Result<HouseKey, Error> {
    let g = ctx.service.load(game).map_err(|e| ctx.fail(e))?;
    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
    g.house_id(&variant, written).map_err(|e| ctx.fail(e))
}

fn moderate(ctx: &Context, game: &str, action: Action) -> Result<Game, Error> {
    ctx.service
        .execute(game, &Actor::Moderator, action, ctx.now)
        .map(|outcome| outcome.game)
        .map_err(|e| ctx.fail(e))
}

/// A `--phase` guard, read once.
fn guard(ctx: &Context, phase: Option<&str>) -> Result<Option<PhaseGuard>, Error> {
    phase
        .map(PhaseGuard::read)
        .transpose()
        .map_err(|e| ctx.fail(e))
}

/// Says an action was done, with the game's status and deadline.
fn done(ctx: &Context, g: &Game, what: &str) -> Result<(), Error> {
    let value = json!({
        "game": g.id(),
        "status": g.status(),
        "phase": g.phase(),
        "deadline": g.deadline(),
        "message": what,
    });
    ctx.print(&value, || {
        let mut text = format!("{}: {what}\n", g.id());
        if g.status() != GameStatus::Finished {
            text.push_str(&format!(
                "{} {} — {} {}\n",
                say!(ctx.lang, "cli_game.phase"),
                crate::report::game_text::phase_text(g.phase(), ctx.lang),
                say!(ctx.lang, "cli_game.deadline"),
                g.deadline_text(ctx.lang)
            ));
        }
        text
    })
}

fn print_record(
    ctx: &Context,
    g: &Game,
    record: &crate::game::PhaseRecord,
    preview: bool,
) -> Result<(), Error> {
    if ctx.json {
        let value = json!({"preview": preview, "game": g.id(), "index": record.index, "results": record.results});
        return ctx.print(&value, String::new);
    }
    let variant = ctx.service.variant(g.variant()).map_err(|e| ctx.fail(e))?;
    let mut text = String::new();
    if preview {
        text.push_str(&say!(ctx.lang, "cli_game.preview_nothing_was_stored"));
    }
    let templates = ctx
        .config
        .templates
        .clone()
        .or_else(crate::report::local_templates);
    // The command line is the moderator's: every house's rejected lines.
    match record_results_or_builtin(
        g,
        &variant,
        record,
        !preview,
        &Audience::Moderator,
        ctx.lang,
        templates.as_deref(),
    ) {
        Ok((results, broken)) => {
            text.push_str(&results);
            out!("{text}");
            if let Some(e) = broken {
                tracing::warn!("{}", template_fallback(ctx, &e));
            }
            Ok(())
        }
        // The phase is processed and stored: say so, and the rendering problem apart,
        // without an exit code that would tell a script nothing was done.
        Err(e) if !preview => {
            outln!(
                "{}: {} {}",
                g.id(),
                say!(ctx.lang, "cli_game.phase_processed"),
                crate::report::game_text::phase_text(record.phase, ctx.lang)
            );
            tracing::warn!(
                "{}",
                say!(
                    ctx.lang,
                    "cli_game_more.results_not_rendered",
                    error = e.to_string(),
                    game = g.id(),
                    number = record.number()
                )
            );
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// The warning when a moderator's template failed and the built-in one was used instead.
pub(super) fn template_fallback(ctx: &Context, e: &crate::report::RenderError) -> String {
    say!(
        ctx.lang,
        "cli_game_more.template_fallback",
        error = e.to_string()
    )
}

/// A game's line in `game list --json`.
fn summary(ctx: &Context, g: &Game) -> serde_json::Value {
    json!({
        "id": g.id(),
        "name": g.name(),
        "variant": g.variant().name,
        "status": g.status(),
        "phase": g.phase(),
        "deadline": g.deadline(),
        "deadline_text": g.deadline_text(ctx.lang),
    })
}

/// `game summary --json`: the centres by year (`year` null: the start), the players of
/// each house, past ones too, and the result. The operator reads every address.
fn summary_json(
    g: &Game,
    variant: &Rc<Variant>,
    records: &[crate::game::PhaseRecord],
) -> serde_json::Value {
    let centres: Vec<serde_json::Value> = centres_by_year(g, variant, records)
        .into_iter()
        .map(|(year, counts)| {
            let houses: serde_json::Map<String, serde_json::Value> = g
                .seats()
                .iter()
                .zip(counts)
                .map(|(seat, n)| (seat.house().to_string(), json!(n)))
                .collect();
            json!({ "year": year, "houses": houses })
        })
        .collect();
    let seats: Vec<serde_json::Value> = g
        .seats()
        .iter()
        .map(|seat| {
            let player = seat.player().filter(|_| !seat.resigned());
            json!({
                "house": seat.house(),
                "player": player.map(|p| p.address()),
                "since": player.map(|p| p.joined()),
                "past": seat.past(),
            })
        })
        .collect();
    let ending = scope::within(variant, || serde_json::to_value(g.ending())).unwrap_or_default();
    json!({
        "id": g.id(),
        "status": g.status(),
        "centres": centres,
        "seats": seats,
        "ending": ending,
    })
}

/// A game without its secrets' hashes, for `show --json` and `export`.
pub(super) fn public_game(g: &Game, variant: &Rc<Variant>) -> serde_json::Value {
    let g = g.without_secrets();
    // Places and houses written as the variant's ids, as the store keeps them.
    scope::within(variant, || serde_json::to_value(&g)).unwrap_or_default()
}
