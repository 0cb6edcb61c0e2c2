//! A judge run in-process, for the tests that drive the library rather than the binary: a
//! store in a temporary folder, the clock given by each call, mails handed to the mail desk
//! and the outbox read back as a transport would.
//!
//! Every game these tests set up or change in-process, and every call they make into the
//! service, goes through this file (the mail desk and the site take the service as an
//! argument, through [`World::service`]), so that a change of the service's API is met
//! here once, not in every test. The tests of the store and of the game layer themselves
//! (outbox_envelope, smtp, game_rules, draw, calendar…) open them directly; crash seeds
//! its store here and reads back what the killed binary left by opening it.

#![allow(clippy::unwrap_used)]

use chrono::{DateTime, Utc};
use corbeau::config::Config;
use corbeau::game::{Action, Actor, HouseKey};
use corbeau::game::{
    AuditEntry, Game, GameError, Moderator, NewGame, NoticeKind, Observer, OrderLines, PhaseRecord,
    Settings, StoredOrder, SubmitMode, Trigger, hash_secret,
};
use corbeau::lang::Lang;
use corbeau::mail::dispatch::{Handled, handle};
use corbeau::mail::inbound::{Inbound, InboundError};
use corbeau::mail::maildir::ingest_one;
use corbeau::mail::notify::queue_notices;
use corbeau::mail::outmail::OutMail;
use corbeau::map::Variant;
use corbeau::service::{Service, TickReport};
use corbeau::store::Commit;

use super::TempDir;

/// The game most tests play: Westeros, three houses and a moderator.
pub const GAME: &str = "westeros-1";
pub const JUDGE: &str = "juge@corbeau.test";
pub const STARK: &str = "arya@nord.test";
pub const LANNISTER: &str = "tyrion@roc.test";
pub const BARATHEON: &str = "stannis@peyredragon.test";
pub const MODERATOR: &str = "mestre@citadelle.test";
pub const STRANGER: &str = "inconnu@ailleurs.test";
pub const STARK_SECRET: &str = "loup-d1re";
pub const LANNISTER_SECRET: &str = "Lion-0r!";
pub const BARATHEON_SECRET: &str = "cerf-n01r";
pub const MODERATOR_SECRET: &str = "m0d-s3cret";

/// The three players of [`GAME`]: house, address, secret, language (Lannister reads
/// English).
pub const PLAYERS: [(&str, &str, &str, Lang); 3] = [
    ("stark", STARK, STARK_SECRET, Lang::Fr),
    ("lannister", LANNISTER, LANNISTER_SECRET, Lang::En),
    ("baratheon", BARATHEON, BARATHEON_SECRET, Lang::Fr),
];

/// Monday 23 March 2026, 09:00 in Paris: the tests' clock.
pub fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-03-23T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A game to create; its moderator, if any, writes from [`MODERATOR`] with this secret.
pub struct GameSpec {
    pub id: String,
    pub name: Option<String>,
    pub variant: String,
    pub players: u8,
    pub settings: Settings,
    pub moderator: Option<&'static str>,
}

impl GameSpec {
    /// `id`, a Westeros game of three houses named "La Guerre des Cinq Rois", moderated.
    pub fn westeros(id: &str, settings: Settings) -> GameSpec {
        GameSpec {
            id: id.into(),
            name: Some("La Guerre des Cinq Rois".into()),
            variant: "westeros".into(),
            players: 3,
            settings,
            moderator: Some(MODERATOR_SECRET),
        }
    }
}

/// A judge with its own store, in a temporary folder removed when dropped.
pub struct World {
    // Closed (`None`) between `close` and `reopen`, as a stopped judge's.
    service: Option<Service>,
    pub config: Config,
    pub dir: TempDir,
    /// The subject of the mails [`World::inbound`] makes.
    pub subject: &'static str,
    /// The word of their Message-IDs: `1.WORD@arya.nord.test`.
    pub tag: &'static str,
    /// Whether they name their sender as author (the From header's addresses).
    pub authors: bool,
    sent: u32,
}

impl World {
    /// An empty judge answering as [`JUDGE`]; its store in `DIR/data`. `what` names the
    /// test file, `name` the test.
    pub fn new(what: &str, name: &str) -> World {
        World::with_config(what, name, |_| {})
    }

    /// [`World::new`], its configuration changed by `tweak` before the store opens.
    pub fn with_config(what: &str, name: &str, tweak: impl FnOnce(&mut Config)) -> World {
        let dir = TempDir::new(what, name);
        let mut config = Config {
            data_dir: dir.join("data"),
            ..Config::default()
        };
        config.judge.address = JUDGE.into();
        tweak(&mut config);
        // As every command of the binary does before it opens the store: the sieves of
        // the secrets need the judge's key.
        corbeau::service::auth::install_judge_key(&config.key_file()).unwrap();
        World {
            service: Some(super::backend::open_service(&config.data_dir)),
            config,
            dir,
            subject: "ordres",
            tag: "test",
            authors: false,
            sent: 0,
        }
    }

    /// A judge holding [`GAME`] with its three [`PLAYERS`] seated; `start` starts it.
    pub fn westeros(what: &str, name: &str, settings: Settings, start: bool) -> World {
        let w = World::new(what, name);
        w.create_seated(GAME, settings, start);
        w
    }

    /// The service, for the entry points of the mail desk and the site that take it.
    pub fn service(&self) -> &Service {
        self.service.as_ref().expect("the store is open")
    }

    /// Closes the store, as a judge that stopped (its files can then be read as they are).
    pub fn close(&mut self) {
        self.service = None;
    }

    /// Opens the store again, as a restarted judge does.
    pub fn reopen(&mut self) {
        self.service = None;
        self.service = Some(super::backend::open_service(&self.config.data_dir));
    }

    // ------------------------------------------------------------ changing a game

    /// Creates a game at `at`, as the administrator would.
    pub fn create_game(&self, spec: GameSpec, at: DateTime<Utc>) {
        let new = NewGame {
            id: spec.id,
            name: spec.name,
            variant: spec.variant,
            players: spec.players,
            settings: spec.settings,
            moderator: spec.moderator.map(|secret| Moderator {
                address: MODERATOR.into(),
                secret: hash_secret(secret).unwrap(),
            }),
        };
        self.service().create(new, "test", at).unwrap();
    }

    /// Seats players (house, address, secret, language) in a forming game; `start` then
    /// starts it.
    pub fn seat(
        &self,
        id: &str,
        players: &[(&str, &str, &str, Lang)],
        start: bool,
        at: DateTime<Utc>,
    ) {
        let hashed: Vec<(&str, &str, String, Lang)> = players
            .iter()
            .map(|&(house, address, secret, lang)| {
                (house, address, hash_secret(secret).unwrap(), lang)
            })
            .collect();
        self.seat_hashes(id, &hashed, start, at);
    }

    /// [`World::seat`] for players who all share one secret, hashed by the caller once:
    /// a store of many games set up without a hash (tens of milliseconds) per player.
    pub fn seat_sharing(
        &self,
        id: &str,
        players: &[(&str, &str, Lang)],
        hash: &str,
        start: bool,
        at: DateTime<Utc>,
    ) {
        let hashed: Vec<(&str, &str, String, Lang)> = players
            .iter()
            .map(|&(house, address, lang)| (house, address, hash.to_string(), lang))
            .collect();
        self.seat_hashes(id, &hashed, start, at);
    }

    // Seated past the `Seat` action, which hashes each secret itself, and past `Start`,
    // whose notice would queue mails the tests do not look for.
    fn seat_hashes(
        &self,
        id: &str,
        players: &[(&str, &str, String, Lang)],
        start: bool,
        at: DateTime<Utc>,
    ) {
        self.service()
            .shape_for_tests(id, "test", "seed", at, |game, variant, _| {
                for (house, address, hash, lang) in players {
                    let house = HouseKey::named(variant, house).expect("a house");
                    game.add_player(&house, address, hash.clone(), *lang, at)?;
                }
                if start {
                    game.start(variant, at)?;
                }
                Ok(())
            })
            .unwrap();
    }

    /// The state the sign-on throttle keeps under `key`, if any.
    pub fn guard(&self, key: &str) -> Option<corbeau::store::Guard> {
        self.service().guard(key).unwrap()
    }

    /// A player's stored secret hash replaced by `hash` (one kept from an older judge).
    pub fn set_secret_hash(&self, id: &str, house: &str, hash: &str, at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "test", "old hash", at, |game, _, _| {
                assert!(game.set_secret_hash_for_tests(house, hash));
                Ok(())
            })
            .unwrap();
    }

    /// The moderator lets observers in (`game observers`); the game after.
    pub fn allow_observers(&self, id: &str, at: DateTime<Utc>) -> Game {
        let action = Action::Observers { allowed: true };
        self.moderate(id, action, at)
    }

    /// Starts a forming game.
    pub fn start(&self, id: &str, at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "test", "seed", at, |game, variant, _| {
                game.start(variant, at)
            })
            .unwrap();
    }

    /// Observers of a game, seated as a confirmation would seat them (their secrets are
    /// never used).
    pub fn add_observers(&self, id: &str, addresses: &[String], at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "test", "seed", at, |game, _, _| {
                for address in addresses {
                    game.observers_mut_for_tests().push(Observer {
                        address: address.into(),
                        secret: "(unused)".into(),
                        lang: Lang::Fr,
                        since: at,
                    });
                }
                Ok(())
            })
            .unwrap();
    }

    /// The language a game writes in, changed by hand.
    pub fn set_game_lang(&self, id: &str, lang: Lang, at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "test", "lang", at, |g, _, _| {
                g.settings_mut_for_tests().lang = lang;
                Ok(())
            })
            .unwrap();
    }

    /// The last observer seated leaves, as `NE PLUS OBSERVER` would have it.
    pub fn observer_leaves(&self, id: &str, at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "test", "leave", at, |game, _, _| {
                game.observers_mut_for_tests().pop();
                Ok(())
            })
            .unwrap();
    }

    /// [`GameSpec::westeros`] created at [`now`] with the three [`PLAYERS`] seated.
    pub fn create_seated(&self, id: &str, settings: Settings, start: bool) {
        self.create_game(GameSpec::westeros(id, settings), now());
        self.seat(id, &PLAYERS, start, now());
    }

    /// A house's orders replaced by one order written as is, unchecked: what a game stored
    /// by an earlier judge may hold (an order for another house's unit, say).
    pub fn store_order_unchecked(&self, id: &str, house: &str, order: &str, at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "test", "seed", at, |game, variant, _| {
                let orders = game.orders_mut_for_tests(house);
                let orders = orders.ok_or_else(|| GameError::HouseNotInGame(house.into()))?;
                let source: std::sync::Arc<str> = std::sync::Arc::from("");
                let parsed = corbeau::order::parse_order(variant, &source, 1, order);
                let unit = order.split_whitespace().nth(1).unwrap_or_default();
                *orders = vec![StoredOrder {
                    unit: variant.province_by_id(unit),
                    order: parsed.unwrap().unwrap(),
                }];
                Ok(())
            })
            .unwrap();
    }

    /// A house's orders given (a whole set), by the moderator's hand.
    pub fn submit(&self, id: &str, house: &str, orders: &str, at: DateTime<Utc>) {
        let submit = Action::Submit {
            house: self.house(id, house),
            lines: OrderLines::numbered(orders),
            mode: SubmitMode::Replace,
            source: "test".into(),
            expected: None,
        };
        self.moderate(id, submit, at);
    }

    /// The current phase processed at the moderator's word.
    pub fn process(&self, id: &str, at: DateTime<Utc>) {
        self.service()
            .process(id, &Actor::Moderator, Trigger::Moderator, None, at)
            .unwrap();
    }

    /// The last phase undone by the moderator; the game after.
    pub fn rollback(&self, id: &str, at: DateTime<Utc>) -> Game {
        self.service()
            .rollback(id, &Actor::Moderator, None, at)
            .unwrap()
            .0
    }

    /// A moderator's action, carried out and stored; the game after.
    fn moderate(&self, id: &str, action: Action, at: DateTime<Utc>) -> Game {
        self.service()
            .execute(id, &Actor::Moderator, action, at)
            .unwrap()
            .game
    }

    /// A house ready for the phase.
    pub fn ready(&self, id: &str, house: &str, at: DateTime<Utc>) {
        let ready = Action::Ready {
            house: self.house(id, house),
            ready: true,
        };
        self.moderate(id, ready, at);
    }

    /// Actions of the moderator's carried out in turn and stored in one commit, as the
    /// lines of one mail are: one audit entry, named after the first action; the game
    /// after.
    pub fn act_all(&self, id: &str, actions: Vec<Action>, at: DateTime<Utc>) -> Game {
        let name = actions.first().map_or("nothing", Action::name);
        let mut session = self.service().session(id).unwrap();
        for action in actions {
            session.execute(&Actor::Moderator, action, at).unwrap();
        }
        session
            .commit(
                &Actor::Moderator.audit_name(),
                name,
                corbeau::service::Effects::default(),
                at,
            )
            .unwrap()
    }

    /// Any other action of the moderator's; the game after.
    pub fn act(&self, id: &str, action: Action, at: DateTime<Utc>) -> Game {
        self.moderate(id, action, at)
    }

    /// A house given to a new player (address, a secret never used), as `player replace`.
    pub fn replace_player(&self, id: &str, house: &str, address: &str, at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "moderator", "replace", at, |game, variant, _| {
                let house = HouseKey::named(variant, house).expect("a house");
                game.replace_player(&house, address, "h2".into(), Lang::Fr, at)
            })
            .unwrap();
    }

    /// Notices queued as a game's actions queue them: kind and houses (none: everyone).
    pub fn notify(&self, id: &str, notices: Vec<(NoticeKind, Vec<HouseKey>)>, at: DateTime<Utc>) {
        self.service()
            .shape_for_tests(id, "test", "notices", at, |_, _, effects| {
                for (kind, houses) in notices {
                    effects.notify(kind, houses);
                }
                Ok(())
            })
            .unwrap();
    }

    /// One pass of the judge's clock.
    pub fn tick(&self, at: DateTime<Utc>) -> TickReport {
        self.service().tick(at).unwrap()
    }

    /// A game taken out of the store, as `game delete` does.
    pub fn delete_game(&self, id: &str) {
        let before = self.game(id);
        self.service()
            .store_for_tests()
            .commit(Commit {
                before: Some(&before),
                game: None,
                ..Commit::default()
            })
            .unwrap();
    }

    /// A forming game of `players` on the variant file `path`, written straight to the
    /// store with its variant kept (or, unless `kept`, forgotten again: a variant the
    /// judge can no longer read).
    pub fn store_game_of_file(&self, id: &str, path: &str, players: u8, kept: bool) {
        let source = corbeau::map::variant_source(path).unwrap();
        let pin = corbeau::map::PinnedVariant {
            name: path.into(),
            hash: source.hash(),
        };
        let new = NewGame {
            id: id.into(),
            name: None,
            variant: path.into(),
            players,
            settings: Settings::default(),
            moderator: None,
        };
        let variant = corbeau::map::load_variant(path).unwrap();
        let game = corbeau::game::create(new, &variant, pin.clone(), now()).unwrap();
        let store = self.service().store_for_tests();
        store.keep_variant(&pin.hash, &source.text).unwrap();
        store
            .commit(Commit {
                game: Some(&game),
                ..Commit::default()
            })
            .unwrap();
        if !kept {
            store.forget_variant_for_tests(&pin.hash).unwrap();
        }
    }

    // ------------------------------------------------------------ reading it back

    /// The mails waiting in the outbox of the store in `data` (left there), as a judge
    /// run by the binary queued them.
    pub fn outbox_in(data: &std::path::Path) -> Vec<OutMail> {
        let service = Service::open(data).unwrap();
        service
            .outbox()
            .unwrap()
            .into_iter()
            .map(|(_, m)| OutMail::open(&m))
            .collect()
    }

    pub fn game(&self, id: &str) -> Game {
        self.service().load(id).unwrap()
    }

    /// The houses of a game, in its seats' order.
    pub fn houses(&self, id: &str) -> Vec<String> {
        self.game(id)
            .seats()
            .iter()
            .map(|s| s.house().to_string())
            .collect()
    }

    /// A house of a game, as the game reads one written at the edge.
    pub fn house(&self, id: &str, written: &str) -> HouseKey {
        self.game(id)
            .house_id(&self.variant(id), written)
            .expect("a house of the game")
    }

    pub fn variant(&self, id: &str) -> std::rc::Rc<Variant> {
        self.service().variant(self.game(id).variant()).unwrap()
    }

    pub fn history(&self, id: &str) -> Vec<PhaseRecord> {
        self.service().history(id).unwrap()
    }

    pub fn audit_trail(&self, id: &str) -> Vec<AuditEntry> {
        self.service().audit_trail(id).unwrap()
    }

    /// The audit trail as English lines (see [`super::audit_text`]).
    pub fn audit(&self, id: &str) -> String {
        super::audit_text(&self.audit_trail(id))
    }

    /// The kinds of the notices not yet turned into mails.
    pub fn notice_kinds(&self) -> Vec<NoticeKind> {
        self.notices_pending()
            .into_iter()
            .map(|(kind, _)| kind)
            .collect()
    }

    /// The notices not yet turned into mails: kind and houses.
    pub fn notices_pending(&self) -> Vec<(NoticeKind, Vec<HouseKey>)> {
        self.service()
            .pending_notices()
            .unwrap()
            .into_iter()
            .map(|(_, n)| (n.kind, n.houses))
            .collect()
    }

    /// Whether a mail of this Message-ID was read before.
    pub fn seen(&self, message_id: &str) -> bool {
        self.service().already_seen(message_id).unwrap()
    }

    // ------------------------------------------------------------ mails

    /// A plain mail from `from`, its Message-ID numbered from the start of the test
    /// (`1.test@arya.nord.test`).
    pub fn inbound(&mut self, from: &str, body: &str) -> Inbound {
        self.sent += 1;
        Inbound {
            message_id: format!("{}.{}@{}", self.sent, self.tag, from.replace('@', ".")),
            from: from.into(),
            authors: if self.authors {
                vec![from.to_lowercase()]
            } else {
                Vec::new()
            },
            subject: self.subject.into(),
            body: body.into(),
            size: body.len() + 300,
            ..Inbound::default()
        }
    }

    /// Carries out a mail at `at`.
    pub fn handle(&self, mail: &Inbound, at: DateTime<Utc>) -> Handled {
        handle(self.service(), &self.config, mail, at).unwrap()
    }

    /// Carries out a mail from `from` at `at`.
    pub fn send_at(&mut self, from: &str, body: &str, at: DateTime<Utc>) -> Handled {
        let mail = self.inbound(from, body);
        self.handle(&mail, at)
    }

    /// Carries out a mail from `from` at [`now`].
    pub fn send(&mut self, from: &str, body: &str) -> Handled {
        self.send_at(from, body, now())
    }

    /// Carries out a mail from `from` at [`now`]; the one reply to it (the other mails
    /// queued are taken too, and dropped).
    pub fn ask(&mut self, from: &str, body: &str) -> OutMail {
        self.send(from, body);
        self.reply_to(from)
    }

    /// A `JOIN`, `TAKEOVER` or `CREATE` from `from` at `at`, then the confirmation its
    /// answer asks for, from the same address at the same time: what the confirmation
    /// did. The mails queued by the request are taken.
    pub fn send_confirmed_at(&mut self, from: &str, body: &str, at: DateTime<Utc>) -> Handled {
        self.send_at(from, body, at);
        let asked = self.reply_to(from);
        let text = asked.body.replace("\r\n", "\n");
        let line =
            confirmation_line(&text).unwrap_or_else(|| panic!("no confirmation line in: {text}"));
        self.send_at(from, &line, at)
    }

    /// [`World::send_confirmed_at`] at [`now`]; the one reply to the confirmation.
    pub fn ask_confirmed(&mut self, from: &str, body: &str) -> OutMail {
        self.send_confirmed_at(from, body, now());
        self.reply_to(from)
    }

    /// The one reply to `to` among the mails queued since the last look, all of them
    /// taken out of the outbox.
    pub fn reply_to(&self, to: &str) -> OutMail {
        let mails = self.take();
        let replies: Vec<&OutMail> = mails
            .iter()
            .filter(|m| m.to == to && m.subject.starts_with("Re:"))
            .collect();
        assert_eq!(replies.len(), 1, "replies to {to}: {mails:?}");
        replies[0].clone()
    }

    /// Reads a raw RFC 5322 mail and carries it out, as the Maildir reader does.
    pub fn ingest(&self, raw: &str, at: DateTime<Utc>) -> Result<Handled, InboundError> {
        ingest_one(self.service(), &self.config, raw.as_bytes(), at).unwrap()
    }

    /// Puts a mail in the outbox, as the judge queues one.
    pub fn queue(&self, mail: &OutMail) {
        self.service().queue_mails(vec![mail.seal()]).unwrap();
    }

    /// The mails in the outbox, left there.
    pub fn outbox(&self) -> Vec<OutMail> {
        self.service()
            .outbox()
            .unwrap()
            .into_iter()
            .map(|(_, m)| OutMail::open(&m))
            .collect()
    }

    /// The mails queued since the last look, taken out of the outbox as a transport would.
    pub fn take(&self) -> Vec<OutMail> {
        let mut mails = Vec::new();
        for (key, mail) in self.service().outbox().unwrap() {
            self.service().outbox_sent(key).unwrap();
            mails.push(OutMail::open(&mail));
        }
        mails
    }

    /// The pending notices turned into mails at `at`, then every mail queued taken.
    pub fn notices(&self, at: DateTime<Utc>) -> Vec<OutMail> {
        queue_notices(self.service(), &self.config, at).unwrap();
        self.take()
    }
}

/// The line `… CONFIRM <token>` (`CONFIRMER`) that an answer to a `JOIN`, `TAKEOVER` or
/// `CREATE` asks to send back.
pub fn confirmation_line(body: &str) -> Option<String> {
    body.lines().map(str::trim).find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let n = words.len();
        (n >= 4 && matches!(words[n - 2], "CONFIRM" | "CONFIRMER") && !line.starts_with('>'))
            .then(|| line.to_string())
    })
}
