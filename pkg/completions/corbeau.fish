# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_corbeau_global_optspecs
    string join \n config= data= lang= json v/verbose q/quiet log-format= h/help V/version
end

function __fish_corbeau_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_corbeau_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_corbeau_using_subcommand
    set -l cmd (__fish_corbeau_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c corbeau -n "__fish_corbeau_needs_command" -l config -d 'The configuration file, for the commands that use the store (docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_needs_command" -l data -d 'The data directory, for the commands that use the store' -r -F
complete -c corbeau -n "__fish_corbeau_needs_command" -l lang -d 'Language of messages and results: fr or en' -r
complete -c corbeau -n "__fish_corbeau_needs_command" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_needs_command" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_needs_command" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_needs_command" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_needs_command" -s V -l version -d 'Print version'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "adjudicate" -d 'Adjudicate one phase: a variant, a position and orders give results (text or JSON)'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "datc" -d 'Run DATC test cases (jDip text files or the project\'s .case files)'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "map" -d 'Variant files'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "game" -d 'Stored games: create, list, show, start, pause, resume, extend, process, rollback, end'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "player" -d 'The players of a stored game: add, replace, remove, ready, vote, absence'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "orders" -d 'Orders of a stored game: submit on behalf of a house, show'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "history" -d 'The phases a game has played, or the results of one of them'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "export" -d 'A whole game as JSON: settings, players, position, every phase, audit trail'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "ingest" -d 'Mail in: one message on stdin (an MTA pipe, procmail), or a Maildir\'s new messages'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "outbox" -d 'The mails waiting to be sent, with their last error; `--retry` sends them at the next pass without waiting for the back-off'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "tick" -d 'One pass of the judge: read new mail, process every game whose deadline passed, send reminders, results and replies (for cron)'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "serve" -d 'The judge at work: `tick` in a loop (mail in, deadlines, outbox), until SIGTERM or Ctrl-C'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "publish" -d 'Write the static site of the games: an index, and per game its map, every phase played with its map and public results, and the broadcast press (docs/publish.md)'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "store" -d 'The store itself: `copy` moves it between a data directory and a PostgreSQL database, or backs it up into an empty one'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "bot" -d 'The built-in player: `arena` plays it against a holder and a random player'
complete -c corbeau -n "__fish_corbeau_needs_command" -f -a "completions" -d 'Print shell completions (bash, zsh, fish, elvish, powershell)'
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l variant -d 'A built-in variant (`westeros`, `classique`, `tempete`) or a variant file' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l position -d 'The position to adjudicate (docs/position-format.md); default: the starting position' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l players -d 'Number of players, for the starting position (the absent houses\' units stay neutral)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l house -d 'The house giving orders written without `House:`' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l lang -d 'Language of the results: fr (default) or en; also CORBEAU_LANG' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l templates -d 'A directory of templates (fr/results.txt, en/results.txt) replacing the built-in ones' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l next -d 'Write the position of the next phase to this file' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l rules -d 'The rulebook edition: 2023 (default), 1982, 1971 or dptg (docs/rules.md, "Rule editions")' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -l json -d 'Results as JSON (docs/results-format.md)'
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand adjudicate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand datc" -l repeat -d 'Adjudicate every case this many times and print the adjudication speed' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand datc" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand datc" -l no-check -d 'Do not compare with the expected outcomes (for generated benchmark inputs)'
complete -c corbeau -n "__fish_corbeau_using_subcommand datc" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand datc" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand datc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and not __fish_seen_subcommand_from check list draw" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and not __fish_seen_subcommand_from check list draw" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and not __fish_seen_subcommand_from check list draw" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and not __fish_seen_subcommand_from check list draw" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and not __fish_seen_subcommand_from check list draw" -f -a "check" -d 'Load variant files (or built-in variants by name) and list every problem found'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and not __fish_seen_subcommand_from check list draw" -f -a "list" -d 'List the built-in variants'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and not __fish_seen_subcommand_from check list draw" -f -a "draw" -d 'Draw a position (and a phase\'s orders with their outcomes) as FILE.svg or FILE.png'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from check" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from check" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from list" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l variant -d 'A built-in variant (`westeros`, `classique`, `tempete`) or a variant file' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l position -d 'The position (docs/position-format.md); default: the starting position' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l players -d 'Number of players, for the starting position (the absent houses\' units stay neutral)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l house -d 'The house giving orders written without `House:`' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l out -d 'Where to write the picture: FILE.svg or FILE.png' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l width -d 'Width of a PNG in pixels' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l title -d 'The title\'s first words; default: the variant\'s name' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l lang -d 'Language of the title and legend: fr (default) or en; also CORBEAU_LANG' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand map; and __fish_seen_subcommand_from draw" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "new" -d 'Create a game (forming: add its players, then start it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "list" -d 'List the games'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "show" -d 'Show a game: phase, deadline, houses, who has ordered'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "start" -d 'Start a game whose every house has a player: the first deadline is set'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "pause" -d 'Stop the deadlines (orders are still taken)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "resume" -d 'Restart the deadlines: the time that was left is given back'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "extend" -d 'Move the deadline later (`12h`, `1j`), within the game\'s cap on extensions'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "process" -d 'Adjudicate the current phase now (missing orders hold)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "rollback" -d 'Undo the last processed phase: its orders come back, with a new deadline'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "end" -d 'End the game: a win, a draw, a concession or abandoned'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "edit" -d 'Replace the position (docs/position-format.md); kept in the audit trail'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "audit" -d 'The audit trail: every moderator action and judge decision'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "summary" -d 'The game\'s summary: supply centres at the end of each year, the players of each house (those who left too), the result. What `SUMMARY` answers by mail'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "variant" -d 'Move the game to a new version of its variant (a built-in name or a variant file, read now): refused unless it has the same houses and reads the game\'s position, stored orders and history'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "observers" -d 'Allow or forbid observers (`oui`/`non`, `yes`/`no`); forbidding ends the current observers and the requests waiting for confirmation'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "pictures" -d 'Turn the board\'s picture in the game\'s mails on or off (`oui`/`non`, `yes`/`no`): off for players on slow links; the texts stay whole. With `--house`, only in that house\'s player\'s own mails (as the player\'s `SET PICTURES off` by mail)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and not __fish_seen_subcommand_from new list show start pause resume extend process rollback end edit audit summary variant observers pictures set" -f -a "set" -d 'Change settings of a game already created: all the options given, or none if one is refused (docs/deadlines.md, "Changing the settings of a game")'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l variant -d 'A built-in variant (`westeros`, `classique`, `tempete`) or a variant file' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l players -d 'Number of players (3 to 7 on westeros, 3 or 4 on tempete): picks the setup; by default the variant\'s largest' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l name -d 'The game\'s full name, for mails' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l moderator -d 'The moderator\'s address (a secret is made for acting by mail)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l zone -d 'Time zone of the deadlines (`Europe/Paris`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l movement -d 'Length of a movement phase (`2j`, `48h`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l retreat -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l adjustment -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l at -d 'Deadlines at this time of day (`20h`, `20:00`, `none`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l days -d 'Days a deadline may fall on (`lun-ven`, `mon,wed,fri`, `all`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l grace -d 'How long to wait past the deadline for missing orders' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l reminders -d 'Reminders before the deadline (`1j,2h`; `none`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l max-absence -d 'How far players\' absences may push one deadline' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l max-extension -d 'Total extension allowed on one phase' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l press -d 'full, broadcast, grey or none' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l civil-disorder-after -d 'Phases missed in a row before a house is in civil disorder (0: never)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l victory-centres -d 'Supply centres that win (default: the setup\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l last-year -d 'After the winter of this year the leader wins (default: the variant\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l game-lang -d 'Language of the game\'s results and notices (fr, en)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l start-when-full -d 'Whether the game starts by itself when its last seat is taken (default: yes)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l rules -d 'The rulebook edition: 2023 (the default), 1982, 1971 or dptg (docs/rules.md, "Rule editions")' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l garrisons -d 'A strength-1 garrison in each home centre of each house in play, as the Storm of Swords expansion allows on the base board (docs/rules.md, "Garrisons")'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l no-observers -d 'Nobody may observe the game (`game observers GAME yes` allows it later)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l no-pictures -d 'Mails carry no picture of the board (`game pictures GAME yes` turns them on)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l open -d 'Free seats may be taken by mail (`JOIN`), vacant ones at once (`TAKEOVER`); docs/email.md, "Joining a game"'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l bots -d 'The built-in player plays houses in civil disorder and vacant seats (docs/bot.md, "Its place in games")'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from new" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pause" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from resume" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from extend" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -l phase -d 'Only if this is the current phase (`printemps 299 mouvements`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -l preview -d 'Show what would happen; store nothing'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from process" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -l phase -d 'Only if the phase to undo is this one' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from rollback" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l win -d 'These houses win (several: a shared victory)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l concede -d 'Every other house concedes to this one' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l draw -d 'A draw between every house still in the game'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l abandon -d 'Stop the game without a result'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from end" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -l reason -d 'Why, for the audit trail' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from audit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from summary" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from variant" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from observers" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -l house -d 'Only this house\'s player\'s mails' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from pictures" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l grace -d 'How long to wait past the deadline for missing orders (`6h`, `0`), at most 7 days' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l press -d 'full, broadcast, grey or none' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l reminders -d 'Reminders before the deadline (`1j,2h`; `none`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l days -d 'Days deadlines may fall on from now on (`lun-ven`, `sat,sun`, `all`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l deadline -d 'The current phase\'s deadline, in the game\'s time zone (`"2026-12-01 20:00"`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l addresses -d 'Whether WHOGAME and SUMMARY show the players\' addresses to anyone (`shown`, `hidden`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l grey-authors -d 'Whether the mail that ends the game names the authors of grey press (`shown`, `hidden`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l open -d 'Whether strangers may take free seats by mail (`yes`/`no`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l start-when-full -d 'Whether an open game starts by itself when its last seat is taken (`yes`/`no`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l bots -d 'Whether the built-in player plays houses in civil disorder and vacant seats (`on`/`off`); docs/bot.md, "Its place in games"' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l rules -d 'The rulebook edition (`2023`, `1982`, `1971`, `dptg`); only before the start (docs/rules.md, "Rule editions")' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l civil-disorder-after -d 'Phases a house may miss in a row before it is in civil disorder (`0`: never; at most 12), from the next deadline on' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l min-reliability -d 'The reliability (percent of phases due that a player ordered, across this judge\'s games) an address needs to take a seat by mail; `0`: none. The players already seated keep their seats (docs/email.md, "Records")' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand game; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "add" -d 'Seat a player in a house (a secret is made unless given)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "replace" -d 'Give a house to a new player (the old secret stops working)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "remove" -d 'Leave a house without a player'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "set" -d 'A player\'s own settings: `--zone America/New_York` shows every deadline of their mails in that zone, the game\'s beside it (`--zone game`: the game\'s again)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "ready" -d 'Declare a house ready for early processing (or not, with --not)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "vote" -d 'A house\'s vote: `draw`, `draw HOUSE HOUSE…` (a draw shared by these houses only), `concede HOUSE`, or `none`'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "absence" -d 'Declare a player\'s absence (`2026-12-24` `2026-12-27 20:00`): deadlines move past it'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "approve" -d 'Give a house to the address that asked for it (`TAKEOVER`); its welcome, with the secret, is mailed to it'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and not __fish_seen_subcommand_from add replace remove set ready vote absence approve reject" -f -a "reject" -d 'Refuse the requests for a house (or the one of the address named); each address that asked is told'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l secret -d 'The player\'s secret (default: a new random one, printed once)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l player-lang -d 'The player\'s language (fr, en): their mails and answers; default: the game\'s. (The global `--lang` is the language this command answers the moderator in.)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l welcome -d 'Also mail the player their welcome, as `AJOUTER`/`REMPLACER` by mail does: the secret, the house\'s units and an example order, the board\'s picture, and for a replacement the game\'s last results (docs/email.md, "Pictures")'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l secret -d 'The player\'s secret (default: a new random one, printed once)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l player-lang -d 'The player\'s language (fr, en): their mails and answers; default: the game\'s. (The global `--lang` is the language this command answers the moderator in.)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l welcome -d 'Also mail the player their welcome, as `AJOUTER`/`REMPLACER` by mail does: the secret, the house\'s units and an example order, the board\'s picture, and for a replacement the game\'s last results (docs/email.md, "Pictures")'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from replace" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -l zone -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -l not
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from ready" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from vote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from absence" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from approve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand player; and __fish_seen_subcommand_from reject" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -f -a "submit" -d 'Give a house\'s orders (from a file, or standard input): they replace its orders, or with --partial only those of the units they name'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and not __fish_seen_subcommand_from submit show" -f -a "show" -d 'Show the orders received: one house\'s as understood, or who has ordered'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -l phase -d 'Only if this is the current phase (`printemps 299 mouvements`)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -l partial -d 'Replace only the orders of the units named'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from submit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand orders; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -l map -d 'Also draw the phase: the position after it with its orders, as FILE.png or FILE.svg' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -l maildir -d 'Read every new message of this Maildir (moved to cur/ once carried out) instead of one message on stdin' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand ingest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -l retry -d 'Try every waiting mail again at the next pass, without waiting for its back-off'
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand outbox" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand tick" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -l interval -d 'Seconds between two passes (default: the configuration\'s `serve.interval`, 60)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -l config -d 'The configuration file (default: ./corbeau.toml if present; docs/configuration.md)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -l data -d 'The data directory (default: the configuration\'s `data_dir`, ./corbeau-data)' -r -F
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -l lang -d 'Language of messages and results: fr or en (default: the configuration\'s)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -l json -d 'Output for tools, as JSON'
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand publish" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and not __fish_seen_subcommand_from copy" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and not __fish_seen_subcommand_from copy" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and not __fish_seen_subcommand_from copy" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and not __fish_seen_subcommand_from copy" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and not __fish_seen_subcommand_from copy" -f -a "copy" -d 'Copy every game, mail and record of a store into an empty one: each side a data directory or a PostgreSQL URL (postgresql://…)'
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and __fish_seen_subcommand_from copy" -l from -d 'The store to read: a data directory, or a PostgreSQL URL' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and __fish_seen_subcommand_from copy" -l to -d 'The store to write, which must hold nothing yet: a data directory (created if need be), or a PostgreSQL URL (its tables created if need be)' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and __fish_seen_subcommand_from copy" -l lang -d 'Language of the messages: fr or en' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and __fish_seen_subcommand_from copy" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and __fish_seen_subcommand_from copy" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and __fish_seen_subcommand_from copy" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand store; and __fish_seen_subcommand_from copy" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and not __fish_seen_subcommand_from arena" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and not __fish_seen_subcommand_from arena" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and not __fish_seen_subcommand_from arena" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and not __fish_seen_subcommand_from arena" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and not __fish_seen_subcommand_from arena" -f -a "arena" -d 'Play whole games between kinds of player (the bot, the yardstick, a holder, a random player); print each kind\'s centres at the end (95 % interval), wins, survivals, and the bot\'s time per decision'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -l variant -d 'A built-in variant (`westeros`, `classique`, `tempete`) or a variant file' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -l games -d 'Number of games' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -l kinds -d 'The kinds of player to seat, turned over the houses from one game to the next (a kind named twice counts once)' -r -f -a "bot\t'The built-in player, which looks ahead with the judge'
dumb\t'The yardstick: the DumbBot-like player the bot must beat'
hold\t'Holds every unit, never builds'
random\t'Random legal orders'"
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -l seed -d 'The seed of the first game; the same seed plays the same games' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -l lang -d 'Language of the text: fr (default) or en; also CORBEAU_LANG' -r
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -l json -d 'The figures as one JSON object'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand bot; and __fish_seen_subcommand_from arena" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c corbeau -n "__fish_corbeau_using_subcommand completions" -l log-format -d 'The log lines\' form: text, or one JSON object per line' -r -f -a "text\t'A time, a level and a sentence per line'
json\t'One JSON object per event and per line: time, level, target, message and the event\'s fields (a pass\'s counts)'"
complete -c corbeau -n "__fish_corbeau_using_subcommand completions" -s v -l verbose -d 'More log lines on standard error: -v the debug ones, -vv the trace ones (CORBEAU_LOG wins over it)'
complete -c corbeau -n "__fish_corbeau_using_subcommand completions" -s q -l quiet -d 'Fewer log lines: -q warnings and errors only, -qq errors only, -qqq none (`datc -q`: only its failures and summary)'
complete -c corbeau -n "__fish_corbeau_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
