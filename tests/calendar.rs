//! The deadline calendar (docs/deadlines.md): spans, weekdays, deadlines across zones and
//! clock changes, weekday rules, absences, extensions, reminders, dates for people, the
//! moderator's inputs and every error message in both languages. Instants are fixed dates,
//! never the clock.

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Timelike, Utc, Weekday};
use chrono_tz::Tz;
use pretty_assertions::assert_eq;
use proptest::prelude::*;

use corbeau::game::calendar::{
    Absence, CalendarError, Schedule, Span, Weekdays, parse_local_time, parse_time_of_day,
    parse_time_zone,
};
use corbeau::judge::PhaseKind;
use corbeau::lang::Lang;
use corbeau::report::format_deadline;

const PARIS: Tz = Tz::Europe__Paris;
const NEW_YORK: Tz = Tz::America__New_York;
const TOKYO: Tz = Tz::Asia__Tokyo;
const SYDNEY: Tz = Tz::Australia__Sydney;

fn span(s: &str) -> Span {
    s.parse()
        .unwrap_or_else(|e: CalendarError| panic!("{s}: {e}"))
}

/// A local time in a zone, written `2026-11-22 20:00`.
fn at(tz: Tz, s: &str) -> DateTime<Utc> {
    parse_local_time(s, tz).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// An instant as the zone's wall clock shows it, with the offset: `2026-11-22 20:00 +01:00`.
fn show(t: DateTime<Utc>, tz: Tz) -> String {
    t.with_timezone(&tz)
        .format("%Y-%m-%d %H:%M %:z")
        .to_string()
}

fn time(s: &str) -> NaiveTime {
    parse_time_of_day(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The default schedule (Europe/Paris, 2d/1d/1d, 20:00, every day) in another zone and time.
fn schedule(tz: Tz, time_of_day: Option<&str>) -> Schedule {
    Schedule {
        time_zone: tz,
        time_of_day: time_of_day.map(time),
        ..Schedule::default()
    }
}

fn absence(tz: Tz, start: &str, end: &str) -> Absence {
    Absence {
        start: at(tz, start),
        end: at(tz, end),
    }
}

// ---------------------------------------------------------------- spans

#[test]
fn spans_parse_in_french_and_english_and_print_canonically() {
    let cases = [
        ("48h", "2d"),
        ("2d", "2d"),
        ("2j", "2d"),
        ("1d12h", "1d12h"),
        ("36h", "1d12h"),
        ("90m", "1h30m"),
        ("1w", "7d"),
        ("1s", "7d"),
        ("1W", "7d"),
        ("3 semaines", "21d"),
        ("2 jours", "2d"),
        ("1 j 12 h", "1d12h"),
        ("1h 30min", "1h30m"),
        ("2 days 3 hours", "2d3h"),
        (" 12H ", "12h"),
        ("0", "0h"),
        ("0h", "0h"),
        ("365d", "365d"),
        ("52w1d", "365d"),
    ];
    for (input, canonical) in cases {
        let parsed = span(input);
        assert_eq!(parsed.to_string(), canonical, "{input}");
        assert_eq!(span(canonical), parsed, "round trip of {input}");
        assert_eq!(
            span(&parsed.text(Lang::Fr)),
            parsed,
            "French form of {input}"
        );
    }
    assert_eq!(span("1d12h").text(Lang::Fr), "1j12h");
    assert_eq!(span("1d12h").as_delta(), Duration::hours(36));
    assert_eq!(span("1d12h").as_minutes(), 36 * 60);
}

#[test]
fn spans_refuse_what_is_not_a_span() {
    let invalid = |input: &str| CalendarError::InvalidSpan {
        input: input.trim().to_string(),
    };
    let cases = [
        ("", invalid("")),
        ("48", invalid("48")),
        ("h", invalid("h")),
        ("-2d", invalid("-2d")),
        ("2d,3h", invalid("2d,3h")),
        ("deux jours", invalid("deux jours")),
        ("1.5d", invalid("1.5d")),
        (
            "2x",
            CalendarError::UnknownSpanUnit {
                input: "2x".into(),
                unit: "x".into(),
            },
        ),
        (
            "3 mois",
            CalendarError::UnknownSpanUnit {
                input: "3 mois".into(),
                unit: "mois".into(),
            },
        ),
        (
            "366d",
            CalendarError::SpanTooLong {
                input: "366d".into(),
            },
        ),
        (
            "99999999999999h",
            CalendarError::SpanTooLong {
                input: "99999999999999h".into(),
            },
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(input.parse::<Span>(), Err(expected), "{input:?}");
    }
}

#[test]
fn spans_serialize_as_their_canonical_string() {
    assert_eq!(serde_json::to_string(&span("36h")).unwrap(), "\"1d12h\"");
    assert_eq!(
        serde_json::from_str::<Span>("\"2j\"").unwrap(),
        Span::days(2)
    );
    let error = serde_json::from_str::<Span>("\"2x\"").unwrap_err();
    assert!(error.to_string().contains("unknown unit `x`"), "{error}");
}

// ---------------------------------------------------------------- weekdays

#[test]
fn weekdays_parse_french_and_english_names_and_ranges() {
    use Weekday::*;
    let cases: &[(&str, &[Weekday])] = &[
        ("lun-ven", &[Mon, Tue, Wed, Thu, Fri]),
        ("mon-fri", &[Mon, Tue, Wed, Thu, Fri]),
        ("mon,wed,fri", &[Mon, Wed, Fri]),
        ("Lundi, Mercredi, Vendredi", &[Mon, Wed, Fri]),
        ("sam,dim", &[Sat, Sun]),
        ("sam et dim", &[Sat, Sun]),
        ("saturday sunday", &[Sat, Sun]),
        ("lun - ven", &[Mon, Tue, Wed, Thu, Fri]),
        ("ven-lun", &[Mon, Fri, Sat, Sun]),
        ("mar-jeu, dim", &[Tue, Wed, Thu, Sun]),
        ("tous", &[Mon, Tue, Wed, Thu, Fri, Sat, Sun]),
        ("all", &[Mon, Tue, Wed, Thu, Fri, Sat, Sun]),
        ("*", &[Mon, Tue, Wed, Thu, Fri, Sat, Sun]),
        ("mer.", &[Wed]),
    ];
    for (input, days) in cases {
        let parsed: Weekdays = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(parsed, Weekdays::from_days(days), "{input}");
        assert_eq!(parsed.days().collect::<Vec<_>>(), days.to_vec(), "{input}");
        assert_eq!(
            parsed.to_string().parse::<Weekdays>(),
            Ok(parsed),
            "{input}"
        );
    }
    assert_eq!("lun-ven".parse::<Weekdays>(), Ok(Weekdays::WORKDAYS));
    assert_eq!(Weekdays::WORKDAYS.to_string(), "mon,tue,wed,thu,fri");
}

#[test]
fn weekdays_refuse_unknown_names_with_a_suggestion() {
    assert_eq!(
        "lun-vne".parse::<Weekdays>(),
        Err(CalendarError::UnknownWeekday {
            input: "lun-vne".into(),
            word: "vne".into(),
            nearest: Some("ven"),
        })
    );
    assert_eq!(
        "lundi, xyz".parse::<Weekdays>(),
        Err(CalendarError::UnknownWeekday {
            input: "lundi, xyz".into(),
            word: "xyz".into(),
            nearest: None,
        })
    );
    assert_eq!("".parse::<Weekdays>(), Err(CalendarError::NoWeekday));
    assert_eq!(" , ".parse::<Weekdays>(), Err(CalendarError::NoWeekday));
}

#[test]
fn weekdays_serialize_as_english_short_names() {
    assert_eq!(
        serde_json::to_string(&Weekdays::WORKDAYS).unwrap(),
        r#"["mon","tue","wed","thu","fri"]"#
    );
    let cases = [
        (r#"["sat","sun"]"#, "sat,sun"),
        (r#"["lundi","ven"]"#, "mon,fri"),
        (r#""lun-mer""#, "mon,tue,wed"),
        ("[]", ""),
    ];
    for (json, days) in cases {
        let parsed: Weekdays = serde_json::from_str(json).unwrap();
        assert_eq!(parsed.to_string(), days, "{json}");
    }
    assert!(serde_json::from_str::<Weekdays>(r#"["mun"]"#).is_err());
}

// ---------------------------------------------------------------- schedules

#[test]
fn the_default_schedule_is_valid_and_round_trips_through_toml_and_json() {
    let default = Schedule::default();
    assert_eq!(default.validate(), Ok(()));
    assert_eq!(default.time_zone, PARIS);
    assert_eq!(default.time_of_day, Some(time("20:00")));
    assert_eq!(default.movement, Span::days(2));
    assert_eq!(default.reminders, vec![Span::days(1)]);

    let json = serde_json::to_value(&default).unwrap();
    assert_eq!(json["time_zone"], "Europe/Paris");
    assert_eq!(json["movement"], "2d");
    assert_eq!(json["time_of_day"], "20:00:00");
    assert_eq!(json["weekdays"][6], "sun");
    assert_eq!(serde_json::from_value::<Schedule>(json).unwrap(), default);

    let text = toml::to_string(&default).unwrap();
    assert_eq!(toml::from_str::<Schedule>(&text).unwrap(), default);

    // A moderator's file: the fields left out take their default.
    let written: Schedule = toml::from_str(
        "time_zone = \"America/New_York\"\nmovement = \"72h\"\ntime_of_day = \"21:30\"\n\
         weekdays = \"lun-ven\"\nreminders = [\"1j\", \"2h\"]\n",
    )
    .unwrap();
    assert_eq!(
        written,
        Schedule {
            time_zone: NEW_YORK,
            movement: Span::days(3),
            time_of_day: Some(time("21:30")),
            weekdays: Weekdays::WORKDAYS,
            reminders: vec![Span::days(1), Span::hours(2)],
            ..Schedule::default()
        }
    );
}

#[test]
fn validate_refuses_schedules_that_make_no_sense() {
    let cases = [
        (
            Schedule {
                movement: Span::ZERO,
                ..Schedule::default()
            },
            CalendarError::ZeroPhase {
                kind: PhaseKind::Movement,
            },
        ),
        (
            Schedule {
                adjustment: Span::ZERO,
                ..Schedule::default()
            },
            CalendarError::ZeroPhase {
                kind: PhaseKind::Adjustment,
            },
        ),
        (
            Schedule {
                weekdays: Weekdays::NONE,
                ..Schedule::default()
            },
            CalendarError::NoWeekday,
        ),
        (
            Schedule {
                reminders: vec![Span::hours(2), Span::ZERO],
                ..Schedule::default()
            },
            CalendarError::InvalidReminder {
                reminder: Span::ZERO,
                longest: Span::days(2),
            },
        ),
        (
            Schedule {
                reminders: vec![Span::days(2)],
                ..Schedule::default()
            },
            CalendarError::InvalidReminder {
                reminder: Span::days(2),
                longest: Span::days(2),
            },
        ),
    ];
    for (schedule, expected) in cases {
        assert_eq!(schedule.validate(), Err(expected));
    }
}

// ---------------------------------------------------------------- deadlines

#[test]
fn deadlines_across_time_zones() {
    // zone, time of day, phase, opened (local), deadline (local, with offset)
    let cases = [
        (
            PARIS,
            Some("20:00"),
            PhaseKind::Movement,
            "2026-11-20 20:00",
            "2026-11-22 20:00 +01:00",
        ),
        // Opened a few minutes after the time of day: the deadline is the next 20:00 at
        // least two days later, a day further (docs/deadlines.md, "opened").
        (
            PARIS,
            Some("20:00"),
            PhaseKind::Movement,
            "2026-11-20 20:05",
            "2026-11-23 20:00 +01:00",
        ),
        (
            PARIS,
            Some("20:00"),
            PhaseKind::Retreat,
            "2026-11-20 09:00",
            "2026-11-21 20:00 +01:00",
        ),
        (
            NEW_YORK,
            Some("21:00"),
            PhaseKind::Movement,
            "2026-06-01 09:00",
            "2026-06-03 21:00 -04:00",
        ),
        (
            NEW_YORK,
            None,
            PhaseKind::Adjustment,
            "2026-12-31 23:30",
            "2027-01-01 23:30 -05:00",
        ),
        (
            TOKYO,
            Some("22:00"),
            PhaseKind::Retreat,
            "2026-01-10 23:00",
            "2026-01-12 22:00 +09:00",
        ),
        (
            TOKYO,
            Some("00:00"),
            PhaseKind::Movement,
            "2026-02-27 12:00",
            "2026-03-02 00:00 +09:00",
        ),
        // Sydney leaves summer time on Sunday 5 April 2026 and enters it on 4 October.
        (
            SYDNEY,
            Some("20:00"),
            PhaseKind::Movement,
            "2026-04-03 20:00",
            "2026-04-05 20:00 +10:00",
        ),
        (
            SYDNEY,
            Some("20:00"),
            PhaseKind::Movement,
            "2026-10-03 20:00",
            "2026-10-05 20:00 +11:00",
        ),
        (
            Tz::UTC,
            None,
            PhaseKind::Movement,
            "2026-05-01 13:37",
            "2026-05-03 13:37 +00:00",
        ),
        (
            Tz::UTC,
            Some("12:00"),
            PhaseKind::Movement,
            "2026-05-01 13:37",
            "2026-05-04 12:00 +00:00",
        ),
    ];
    for (tz, time_of_day, kind, opened, expected) in cases {
        let deadline = schedule(tz, time_of_day).deadline(at(tz, opened), kind, &[]);
        assert_eq!(
            show(deadline, tz),
            expected,
            "{tz} {time_of_day:?} {kind:?} {opened}"
        );
    }
}

#[test]
fn two_days_over_the_spring_change_in_paris_end_at_the_same_wall_clock_time() {
    // Summer time starts on Sunday 29 March 2026 at 02:00 (clocks go to 03:00).
    let s = Schedule::default();
    let opened = at(PARIS, "2026-03-28 20:00");
    let deadline = s.deadline(opened, PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, PARIS), "2026-03-30 20:00 +02:00");
    assert_eq!(deadline - opened, Duration::hours(47));

    // Without a time of day: the days are counted on the calendar, the hours exactly.
    let free = schedule(PARIS, None);
    let free_36h = Schedule {
        movement: span("36h"),
        ..free.clone()
    };
    let opened = at(PARIS, "2026-03-28 12:00");
    assert_eq!(
        show(free.deadline(opened, PhaseKind::Movement, &[]), PARIS),
        "2026-03-30 12:00 +02:00"
    );
    assert_eq!(
        show(free_36h.deadline(opened, PhaseKind::Movement, &[]), PARIS),
        "2026-03-30 00:00 +02:00"
    );
    // Hours alone are exact: 12 hours from Saturday 20:00 is Sunday 09:00 summer time.
    let twelve_hours = Schedule {
        retreat: span("12h"),
        ..free
    };
    assert_eq!(
        show(
            twelve_hours.deadline(at(PARIS, "2026-03-28 20:00"), PhaseKind::Retreat, &[]),
            PARIS
        ),
        "2026-03-29 09:00 +02:00"
    );
}

#[test]
fn two_days_over_the_autumn_change_in_paris_end_at_the_same_wall_clock_time() {
    // Summer time ends on Sunday 25 October 2026 at 03:00 (clocks go back to 02:00).
    let opened = at(PARIS, "2026-10-24 20:00");
    let deadline = Schedule::default().deadline(opened, PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, PARIS), "2026-10-26 20:00 +01:00");
    assert_eq!(deadline - opened, Duration::hours(49));
}

#[test]
fn a_time_of_day_in_the_spring_gap_moves_to_the_end_of_the_gap() {
    // 02:30 does not exist in Paris on 29 March 2026: the deadline is at 03:00 summer time.
    let s = schedule(PARIS, Some("02:30"));
    let deadline = s.deadline(at(PARIS, "2026-03-27 02:30"), PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, PARIS), "2026-03-29 03:00 +02:00");
    assert_eq!(
        deadline,
        Utc.with_ymd_and_hms(2026, 3, 29, 1, 0, 0).unwrap()
    );
    assert_eq!(
        show(s.snap(at(PARIS, "2026-03-28 21:00")), PARIS),
        "2026-03-29 03:00 +02:00"
    );
    // The day after, 02:30 exists again.
    assert_eq!(
        show(
            s.snap(at(PARIS, "2026-03-29 03:00") + Duration::minutes(1)),
            PARIS
        ),
        "2026-03-30 02:30 +02:00"
    );
}

#[test]
fn a_time_of_day_in_the_autumn_fold_takes_the_earlier_instant() {
    // 01:30 happens twice in New York on 1 November 2026: at 05:30 UTC (EDT), then at
    // 06:30 UTC (EST). The deadline is the first.
    let s = schedule(NEW_YORK, Some("01:30"));
    let deadline = s.deadline(at(NEW_YORK, "2026-10-30 01:30"), PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, NEW_YORK), "2026-11-01 01:30 -04:00");
    assert_eq!(
        deadline,
        Utc.with_ymd_and_hms(2026, 11, 1, 5, 30, 0).unwrap()
    );
    // Between the two, the second 01:30 is not a deadline: the next one is a day later.
    let between = Utc.with_ymd_and_hms(2026, 11, 1, 6, 0, 0).unwrap();
    assert_eq!(show(s.snap(between), NEW_YORK), "2026-11-02 01:30 -05:00");
}

#[test]
fn deadlines_avoid_days_that_are_not_allowed() {
    let workdays = Schedule {
        weekdays: Weekdays::WORKDAYS,
        ..Schedule::default()
    };
    // Thursday 19 November + 2 days is Saturday: Monday at 20:00.
    let deadline = workdays.deadline(at(PARIS, "2026-11-19 20:00"), PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, PARIS), "2026-11-23 20:00 +01:00");
    assert_eq!(
        format_deadline(deadline, PARIS, Lang::Fr),
        "lundi 23 novembre 2026 à 20:00 (Europe/Paris)"
    );
    // Friday + 2 days is Sunday: Monday too.
    let deadline = workdays.deadline(at(PARIS, "2026-11-20 20:00"), PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, PARIS), "2026-11-23 20:00 +01:00");
    // Without a time of day, the deadline moves to the start of Monday.
    let free = Schedule {
        time_of_day: None,
        ..workdays
    };
    let deadline = free.deadline(at(PARIS, "2026-11-19 14:00"), PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, PARIS), "2026-11-23 00:00 +01:00");
    // Weekends only: from Monday, Saturday.
    let weekends = Schedule {
        weekdays: "sam,dim".parse().unwrap(),
        ..Schedule::default()
    };
    let deadline = weekends.deadline(at(PARIS, "2026-11-16 12:00"), PhaseKind::Movement, &[]);
    assert_eq!(show(deadline, PARIS), "2026-11-21 20:00 +01:00");
}

// ---------------------------------------------------------------- absences

#[test]
fn absences_push_the_deadline_past_their_end() {
    let s = Schedule::default();
    let opened = at(PARIS, "2026-11-20 20:00");
    let deadline =
        |absences: &[Absence]| show(s.deadline(opened, PhaseKind::Movement, absences), PARIS);
    assert_eq!(deadline(&[]), "2026-11-22 20:00 +01:00");

    let away = absence(PARIS, "2026-11-22 10:00", "2026-11-24 12:00");
    assert_eq!(deadline(&[away]), "2026-11-24 20:00 +01:00", "one absence");

    // The first push lands in a second absence (given first): pushed again.
    let later = absence(PARIS, "2026-11-24 18:00", "2026-11-26 09:00");
    assert_eq!(
        deadline(&[later, away]),
        "2026-11-26 20:00 +01:00",
        "two chained"
    );

    let long = absence(PARIS, "2026-11-21 00:00", "2026-12-24 00:00");
    assert_eq!(
        deadline(&[long]),
        "2026-11-29 20:00 +01:00",
        "capped at 7 days after the deadline without absences"
    );

    let after = absence(PARIS, "2026-11-23 08:00", "2026-11-25 08:00");
    let before = absence(PARIS, "2026-11-21 08:00", "2026-11-22 20:00");
    assert_eq!(
        deadline(&[after, before]),
        "2026-11-22 20:00 +01:00",
        "no overlap"
    );

    let no_absences = Schedule {
        max_absence: Span::ZERO,
        ..s.clone()
    };
    assert_eq!(
        show(
            no_absences.deadline(opened, PhaseKind::Movement, &[away]),
            PARIS
        ),
        "2026-11-22 20:00 +01:00",
        "max_absence 0 turns absences off"
    );
}

#[test]
fn an_absence_cap_on_a_day_not_allowed_falls_back_to_the_last_allowed_day() {
    let s = Schedule {
        weekdays: Weekdays::WORKDAYS,
        max_absence: span("3d"),
        ..Schedule::default()
    };
    // Tuesday + 2 days: Thursday 20:00; cap Sunday 20:00, not a workday: Friday 20:00.
    let away = absence(PARIS, "2026-11-19 00:00", "2026-12-01 00:00");
    let deadline = s.deadline(at(PARIS, "2026-11-17 20:00"), PhaseKind::Movement, &[away]);
    assert_eq!(show(deadline, PARIS), "2026-11-20 20:00 +01:00");
    // Without a time of day: the last minute of Friday.
    let free = Schedule {
        time_of_day: None,
        ..s
    };
    let deadline = free.deadline(at(PARIS, "2026-11-17 20:00"), PhaseKind::Movement, &[away]);
    assert_eq!(show(deadline, PARIS), "2026-11-20 23:59 +01:00");
}

// ---------------------------------------------------------------- extensions

#[test]
fn extensions_are_exact_and_capped_per_phase() {
    let s = Schedule::default();
    let deadline = at(PARIS, "2026-11-22 20:00");
    let extend = |by: &str, already: &str| s.extend(deadline, span(by), span(already));
    assert_eq!(
        show(extend("1d", "0").unwrap(), PARIS),
        "2026-11-23 20:00 +01:00"
    );
    assert_eq!(
        show(extend("90m", "0").unwrap(), PARIS),
        "2026-11-22 21:30 +01:00"
    );
    assert_eq!(
        show(extend("2d", "1d").unwrap(), PARIS),
        "2026-11-24 20:00 +01:00",
        "up to the cap exactly"
    );
    let refused = extend("1d", "2d12h").unwrap_err();
    assert_eq!(
        refused,
        CalendarError::ExtensionTooLong {
            by: Span::days(1),
            already: span("2d12h"),
            max: Span::days(3),
        }
    );
    assert_eq!(
        refused.message(Lang::En),
        "cannot extend by 1d: this phase was already extended by 2d12h and the total may \
         not exceed 3d; at most 12h more is possible"
    );
    assert_eq!(
        refused.message(Lang::Fr),
        "prolongation de 1j refusée : cette phase a déjà été prolongée de 2j12h et le total \
         ne peut dépasser 3j ; on peut encore prolonger de 12h au plus"
    );
    let spent = extend("1h", "3d").unwrap_err();
    assert!(
        spent
            .message(Lang::En)
            .ends_with("no further extension is possible")
    );
    assert!(
        spent
            .message(Lang::Fr)
            .ends_with("aucune prolongation n'est plus possible")
    );
    // A day of extension over the spring change keeps the wall clock (23 hours).
    let spring = at(PARIS, "2026-03-28 20:00");
    assert_eq!(
        show(s.extend(spring, Span::days(1), Span::ZERO).unwrap(), PARIS),
        "2026-03-29 20:00 +02:00"
    );
}

// ---------------------------------------------------------------- reminders and grace

#[test]
fn reminders_come_earliest_first_and_never_before_the_phase_opened() {
    let s = Schedule {
        reminders: vec![span("1d"), span("2h"), span("3d"), span("24h")],
        ..Schedule::default()
    };
    let opened = at(PARIS, "2026-11-20 20:00");
    let deadline = s.deadline(opened, PhaseKind::Movement, &[]);
    let times: Vec<String> = s
        .reminder_times(opened, deadline)
        .into_iter()
        .map(|t| show(t, PARIS))
        .collect();
    assert_eq!(
        times,
        ["2026-11-21 20:00 +01:00", "2026-11-22 18:00 +01:00"]
    );

    // A one-day retreat opened at 20:00: a reminder a day before would be at the opening.
    let retreat = s.deadline(opened, PhaseKind::Retreat, &[]);
    let times: Vec<String> = s
        .reminder_times(opened, retreat)
        .into_iter()
        .map(|t| show(t, PARIS))
        .collect();
    assert_eq!(times, ["2026-11-21 18:00 +01:00"]);

    // A day before a deadline just after the spring change is at the same wall clock time.
    let spring = at(PARIS, "2026-03-30 20:00");
    assert_eq!(
        show(s.before(spring, Span::days(1)), PARIS),
        "2026-03-29 20:00 +02:00"
    );
}

#[test]
fn the_grace_period_ends_after_the_deadline() {
    let s = Schedule {
        grace: span("2h"),
        ..Schedule::default()
    };
    let deadline = at(PARIS, "2026-11-22 20:00");
    assert_eq!(
        show(s.grace_end(deadline), PARIS),
        "2026-11-22 22:00 +01:00"
    );
    assert_eq!(Schedule::default().grace_end(deadline), deadline);
}

// ---------------------------------------------------------------- text for people

#[test]
fn deadlines_are_written_in_french_and_english() {
    let cases = [
        (
            PARIS,
            "2026-11-22 20:00",
            "dimanche 22 novembre 2026 à 20:00 (Europe/Paris)",
            "Sunday 22 November 2026 at 20:00 (Europe/Paris)",
        ),
        (
            NEW_YORK,
            "2026-11-01 01:30",
            "dimanche 1er novembre 2026 à 01:30 (America/New_York)",
            "Sunday 1 November 2026 at 01:30 (America/New_York)",
        ),
        (
            TOKYO,
            "2026-08-05 09:05",
            "mercredi 5 août 2026 à 09:05 (Asia/Tokyo)",
            "Wednesday 5 August 2026 at 09:05 (Asia/Tokyo)",
        ),
        (
            Tz::UTC,
            "2027-02-01 00:00",
            "lundi 1er février 2027 à 00:00 (UTC)",
            "Monday 1 February 2027 at 00:00 (UTC)",
        ),
    ];
    for (tz, local, fr, en) in cases {
        let t = at(tz, local);
        assert_eq!(format_deadline(t, tz, Lang::Fr), fr);
        assert_eq!(format_deadline(t, tz, Lang::En), en);
    }
    // The same instant in another zone.
    let t = at(PARIS, "2026-11-22 20:00");
    assert_eq!(
        format_deadline(t, SYDNEY, Lang::En),
        "Monday 23 November 2026 at 06:00 (Australia/Sydney)"
    );
}

#[test]
fn moderators_write_local_dates_and_times() {
    let utc = |y, m, d, h, min| Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap();
    let cases = [
        ("2026-11-22 20:00", PARIS, utc(2026, 11, 22, 19, 0)),
        ("2026-11-22T20:00", PARIS, utc(2026, 11, 22, 19, 0)),
        ("2026-11-22 20:00:00", PARIS, utc(2026, 11, 22, 19, 0)),
        ("2026-11-22", PARIS, utc(2026, 11, 21, 23, 0)),
        ("  22/11/2026 20h30 ", PARIS, utc(2026, 11, 22, 19, 30)),
        ("22/11/2026 à 20h", PARIS, utc(2026, 11, 22, 19, 0)),
        (
            "2026-11-22T20:00:00+01:00",
            NEW_YORK,
            utc(2026, 11, 22, 19, 0),
        ),
        ("2026-11-22T19:00:00Z", TOKYO, utc(2026, 11, 22, 19, 0)),
        ("2026-11-22 20:00:00+01:00", TOKYO, utc(2026, 11, 22, 19, 0)),
        ("2026-07-01 20:00", NEW_YORK, utc(2026, 7, 2, 0, 0)),
        ("2026-07-01 20:00", TOKYO, utc(2026, 7, 1, 11, 0)),
        ("2026-07-01 20:00", SYDNEY, utc(2026, 7, 1, 10, 0)),
        // In the spring gap: the end of the gap; in the autumn fold: the earlier instant.
        ("2026-03-29 02:30", PARIS, utc(2026, 3, 29, 1, 0)),
        ("2026-11-01 01:30", NEW_YORK, utc(2026, 11, 1, 5, 30)),
    ];
    for (input, tz, expected) in cases {
        assert_eq!(parse_local_time(input, tz), Ok(expected), "{input} in {tz}");
    }
    for input in [
        "",
        "22 nov",
        "2026-13-01",
        "2026-11-22 25:00",
        "2026-11-22 20:00 demain",
    ] {
        assert_eq!(
            parse_local_time(input, PARIS),
            Err(CalendarError::InvalidDateTime {
                input: input.trim().to_string()
            }),
            "{input:?}"
        );
    }
}

#[test]
fn moderators_write_times_of_day() {
    let cases = [
        ("20:00", (20, 0)),
        ("20h", (20, 0)),
        ("20h30", (20, 30)),
        ("20H30", (20, 30)),
        ("20 h 30", (20, 30)),
        ("8:30", (8, 30)),
        ("08:30", (8, 30)),
        ("0h", (0, 0)),
        ("23:59", (23, 59)),
    ];
    for (input, (h, m)) in cases {
        let parsed = parse_time_of_day(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!((parsed.hour(), parsed.minute()), (h, m), "{input}");
    }
    assert_eq!(parse_time_of_day("20:00:30").map(|t| t.second()), Ok(30));
    for input in [
        "", "20", "24:00", "20:60", "20:7", "120:00", "20h3", "-1h", "midi", "8pm",
    ] {
        assert_eq!(
            parse_time_of_day(input),
            Err(CalendarError::InvalidTimeOfDay {
                input: input.to_string()
            }),
            "{input:?}"
        );
    }
}

#[test]
fn moderators_name_time_zones() {
    let cases = [
        ("Europe/Paris", PARIS),
        ("europe/paris", PARIS),
        ("Paris", PARIS),
        ("new york", NEW_YORK),
        ("America/New_York", NEW_YORK),
        ("Asia/Tokyo", TOKYO),
        ("australia/sydney", SYDNEY),
        ("UTC", Tz::UTC),
    ];
    for (input, tz) in cases {
        assert_eq!(parse_time_zone(input), Ok(tz), "{input}");
    }
    assert_eq!(
        parse_time_zone("Europe/Pari"),
        Err(CalendarError::UnknownTimeZone {
            input: "Europe/Pari".into(),
            nearest: Some("Europe/Paris"),
        })
    );
    assert_eq!(
        parse_time_zone("Pariss"),
        Err(CalendarError::UnknownTimeZone {
            input: "Pariss".into(),
            nearest: Some("Europe/Paris"),
        })
    );
    assert_eq!(
        parse_time_zone("Qqqqqq/Zzzzz"),
        Err(CalendarError::UnknownTimeZone {
            input: "Qqqqqq/Zzzzz".into(),
            nearest: None,
        })
    );
}

// ---------------------------------------------------------------- error messages

#[test]
fn every_error_speaks_french_and_english() {
    let cases = [
        (
            "2 dayz".parse::<Span>().unwrap_err(),
            "calendar.unknown_span_unit",
            "unité « dayz » inconnue dans la durée « 2 dayz » : utilisez s (semaine), j (jour), \
             h (heure) ou m (minute), par exemple 1j12h",
            "unknown unit `dayz` in the span `2 dayz`: use w (week), d (day), h (hour) or \
             m (minute), e.g. 1d12h",
        ),
        (
            "48".parse::<Span>().unwrap_err(),
            "calendar.invalid_span",
            "durée « 48 » incomprise : on attend un nombre suivi d'une unité, par exemple \
             48h, 2j, 1j12h, 90m ou 1s (une semaine)",
            "cannot read the span `48`: expected a number and a unit, such as 48h, 2d, 1d12h, \
             90m or 1w",
        ),
        (
            "400j".parse::<Span>().unwrap_err(),
            "calendar.span_too_long",
            "durée « 400j » trop longue : au plus 365 jours (365j)",
            "the span `400j` is too long: at most 365 days (365d)",
        ),
        (
            "lun-vne".parse::<Weekdays>().unwrap_err(),
            "calendar.unknown_weekday",
            "jour « vne » inconnu dans « lun-vne » (vouliez-vous dire « ven » ?) : on attend \
             des jours comme lun-ven, lun,mer,ven, sam,dim ou tous",
            "unknown day `vne` in `lun-vne` (did you mean `ven`?): expected days such as \
             mon-fri, mon,wed,fri, sat,sun or all",
        ),
        (
            "".parse::<Weekdays>().unwrap_err(),
            "calendar.no_weekday",
            "aucun jour n'est permis pour les dates limites : donnez au moins un jour, par \
             exemple lun-ven ou tous",
            "no day is allowed for deadlines: give at least one day, e.g. mon-fri or all",
        ),
        (
            parse_time_of_day("25h").unwrap_err(),
            "calendar.invalid_time_of_day",
            "heure « 25h » incomprise : on attend une heure entre 00:00 et 23:59, par exemple \
             20:00, 20h, 20h30 ou 8:30",
            "cannot read the time of day `25h`: expected a time from 00:00 to 23:59, such as \
             20:00, 20h, 20h30 or 8:30",
        ),
        (
            parse_local_time("22 nov", PARIS).unwrap_err(),
            "calendar.invalid_date_time",
            "date « 22 nov » incomprise : on attend par exemple 2026-11-22 20:00, 22/11/2026 \
             20h, 2026-11-22 (minuit) ou 2026-11-22T20:00:00+01:00",
            "cannot read the date `22 nov`: expected e.g. 2026-11-22 20:00, 22/11/2026 20h, \
             2026-11-22 (midnight) or 2026-11-22T20:00:00+01:00",
        ),
        (
            parse_time_zone("Europe/Pariss").unwrap_err(),
            "calendar.unknown_time_zone",
            "fuseau horaire « Europe/Pariss » inconnu (vouliez-vous dire Europe/Paris ?) : on \
             attend un nom IANA comme Europe/Paris, America/New_York ou UTC",
            "unknown time zone `Europe/Pariss` (did you mean Europe/Paris?): expected an IANA \
             name such as Europe/Paris, America/New_York or UTC",
        ),
        (
            CalendarError::ZeroPhase {
                kind: PhaseKind::Retreat,
            },
            "calendar.zero_phase",
            "une phase de retraites ne peut pas durer 0 : donnez une durée, par exemple 2j",
            "a retreat phase cannot last 0: give a span, e.g. 2d",
        ),
        (
            CalendarError::InvalidReminder {
                reminder: Span::days(3),
                longest: Span::days(2),
            },
            "calendar.invalid_reminder",
            "rappel 3j avant la date limite impossible : un rappel doit être de plus de 0 et \
             de moins que la plus longue phase (2j), par exemple 1j",
            "a reminder 3d before the deadline cannot be sent: a reminder must be more than 0 \
             and less than the longest phase (2d), e.g. 1d",
        ),
        (
            CalendarError::ExtensionTooLong {
                by: Span::days(2),
                already: Span::days(2),
                max: Span::days(3),
            },
            "calendar.extension_too_long",
            "prolongation de 2j refusée : cette phase a déjà été prolongée de 2j et le total \
             ne peut dépasser 3j ; on peut encore prolonger de 1j au plus",
            "cannot extend by 2d: this phase was already extended by 2d and the total may not \
             exceed 3d; at most 1d more is possible",
        ),
    ];
    let mut seen = Vec::new();
    for (error, code, fr, en) in cases {
        assert_eq!(error.code(), code);
        assert_eq!(error.message(Lang::Fr), fr, "{code}");
        assert_eq!(error.message(Lang::En), en, "{code}");
        assert_eq!(error.to_string(), en, "{code}: Display is English");
        seen.push(code);
    }
    seen.sort_unstable();
    let mut every = vec![
        "calendar.invalid_span",
        "calendar.unknown_span_unit",
        "calendar.span_too_long",
        "calendar.unknown_weekday",
        "calendar.no_weekday",
        "calendar.invalid_time_of_day",
        "calendar.invalid_date_time",
        "calendar.unknown_time_zone",
        "calendar.zero_phase",
        "calendar.invalid_reminder",
        "calendar.extension_too_long",
    ];
    every.sort_unstable();
    assert_eq!(seen, every, "one case per variant");
    let _: &dyn std::error::Error = &CalendarError::NoWeekday;
}

// ---------------------------------------------------------------- properties

const ZONES: [Tz; 5] = [PARIS, NEW_YORK, TOKYO, SYDNEY, Tz::UTC];

fn any_schedule() -> impl Strategy<Value = Schedule> {
    let times = prop_oneof![
        Just(None),
        Just(Some("00:00")),
        Just(Some("02:30")),
        Just(Some("01:30")),
        Just(Some("20:00")),
        Just(Some("23:59")),
    ];
    (
        0..ZONES.len(),
        times,
        1u8..128,
        1u32..(10 * 24 * 60),
        0u32..(10 * 24 * 60),
    )
        .prop_map(|(zone, time_of_day, days, movement, max_absence)| {
            let weekdays = Weekdays::from_days(
                &(0u8..7)
                    .filter(|n| days & (1 << n) != 0)
                    .map(|n| Weekday::try_from(n).expect("0 to 6 is a weekday"))
                    .collect::<Vec<_>>(),
            );
            Schedule {
                movement: Span::minutes(movement),
                max_absence: Span::minutes(max_absence),
                weekdays,
                reminders: vec![Span::hours(1), Span::days(1), Span::days(3)],
                ..schedule(ZONES[zone], time_of_day)
            }
        })
}

/// An instant between 2000 and 2040, to the second.
fn any_instant() -> impl Strategy<Value = DateTime<Utc>> {
    (946_684_800i64..2_208_988_800)
        .prop_map(|s| DateTime::from_timestamp(s, 0).expect("2000 to 2040 is in range"))
}

proptest! {
    #[test]
    fn snap_lands_on_an_allowed_instant_not_before(s in any_schedule(), t in any_instant()) {
        let snapped = s.snap(t);
        prop_assert!(snapped >= t);
        let local = snapped.with_timezone(&s.time_zone);
        prop_assert!(s.weekdays.contains(chrono::Datelike::weekday(&local)), "{local}");
        if let Some(time) = s.time_of_day {
            let exists = s.time_zone.from_local_datetime(&local.date_naive().and_time(time)).earliest();
            if exists.is_some() {
                prop_assert_eq!(local.time(), time);
            }
        }
        prop_assert_eq!(s.snap(snapped), snapped, "snap is idempotent");
    }

    #[test]
    fn deadlines_come_at_least_a_span_after_the_opening(
        s in any_schedule(),
        opened in any_instant(),
        absences in proptest::collection::vec((0i64..20 * 24 * 60, 0i64..10 * 24 * 60), 0..4),
    ) {
        let movement = s.movement.as_delta();
        let without = s.deadline(opened, PhaseKind::Movement, &[]);
        // Days are counted on the wall clock: a clock change shortens them by at most an hour.
        prop_assert!(without >= s.after(opened, s.movement));
        prop_assert!(without >= opened + movement - Duration::hours(1));
        prop_assert_eq!(s.snap(without), without, "the deadline is an allowed instant");

        let absences: Vec<Absence> = absences
            .into_iter()
            .map(|(from, length)| {
                let start = opened + Duration::minutes(from);
                Absence { start, end: start + Duration::minutes(length) }
            })
            .collect();
        let with = s.deadline(opened, PhaseKind::Movement, &absences);
        prop_assert!(with >= without);
        prop_assert!(with <= s.after(without, s.max_absence), "capped by max_absence");
        prop_assert_eq!(s.snap(with), with, "still an allowed instant");
        let unbounded = Schedule { max_absence: Span::MAX, ..s.clone() }
            .deadline(opened, PhaseKind::Movement, &absences);
        prop_assert!(absences.iter().all(|a| !a.contains(unbounded)), "outside every absence");
        if unbounded <= s.after(without, s.max_absence) {
            prop_assert_eq!(with, unbounded, "not capped");
        }

        let reminders = s.reminder_times(opened, with);
        prop_assert!(reminders.windows(2).all(|w| w[0] < w[1]), "earliest first");
        prop_assert!(reminders.iter().all(|r| opened < *r && *r < with));
    }

    #[test]
    fn spans_print_what_they_parse(minutes in 0u32..=Span::MAX.as_minutes()) {
        let s = Span::minutes(minutes);
        prop_assert_eq!(s.to_string().parse::<Span>(), Ok(s));
        prop_assert_eq!(s.text(Lang::Fr).parse::<Span>(), Ok(s));
    }

    #[test]
    fn span_parsing_never_panics(text in "\\PC{0,20}") {
        let _ = text.parse::<Span>();
        let _ = text.parse::<Weekdays>();
        let _ = parse_time_of_day(&text);
        let _ = parse_local_time(&text, PARIS);
        let _ = parse_time_zone(&text);
    }
}

proptest! {
    /// Any zone of the database, however odd its history (Samoa skipped 30 December 2011,
    /// Lord Howe moves by half an hour): nothing panics, nothing goes backwards.
    #[test]
    fn every_zone_moves_forward(
        zone in 0..chrono_tz::TZ_VARIANTS.len(),
        s in any_schedule(),
        t in any_instant(),
    ) {
        let s = Schedule { time_zone: chrono_tz::TZ_VARIANTS[zone], ..s };
        let snapped = s.snap(t);
        prop_assert!(snapped >= t);
        prop_assert_eq!(s.snap(snapped), snapped);
        let deadline = s.deadline(t, PhaseKind::Movement, &[]);
        prop_assert!(deadline >= s.after(t, s.movement));
        prop_assert!(s.before(s.after(t, Span::days(1)), Span::days(1)) <= t + Duration::hours(1));
    }
}
