// Headless runner for 40kdice's exact calculator (dice.js of the public repository
// toadchild/40kdice, a browser script; not shipped here), for benchmarks/test_bench_40kdice.py.
// It loads the script with a stub of the few DOM parts its 40K entry point (roll_40k) reads:
// the input fields and the permalink. The charts are left out: their drawing is replaced by
// keeping the figures, so what is timed is the computation.
//
//   node fortykdice_harness.js DICE_JS     requests on stdin, one JSON object a line:
//     {"fields": {...}, "reps": N}          -> {"ns": [N times, ns], "figures": {...}}
//
// The first call of a process is its cold call (the script's functions neither compiled nor
// optimised yet). "figures" holds the killed, damage and unsaved distributions of the last
// call (index = count).
"use strict";

const fs = require("fs");
const readline = require("readline");

const FIELDS = [
    "attacks", "bs", "hit_mod", "hit_reroll", "hit_sus", "hit_crit", "hit_of_6", "s", "t",
    "wound_mod", "wound_reroll", "wound_crit", "wound_of_6", "save", "invulnerable", "ap",
    "save_mod", "save_reroll", "d", "wounds", "fnp", "cover", "hit_leth", "wound_dev",
];

function load(path) {
    const elements = {};
    for (const id of FIELDS) {
        elements[id] = { value: "", checked: false };
    }
    const document = { getElementById: (id) => (id in elements ? elements[id] : null) };
    const location = { hash: "" };
    const kept = {};
    const source = fs.readFileSync(path, "utf8");
    // Wrapped in a function so the script's top-level functions are ordinary bindings (as fast
    // as a page's globals); `graph` is rebound to keep the figures instead of drawing them.
    const make = new Function(
        "document", "location", "Chart", "__kept",
        source + "\n;graph = function (data, title, name) { __kept[name] = data; };" +
        "\nreturn typeof roll_40k === 'function' ? roll_40k : null;"
    );
    const roll = make(document, location, function () {}, kept);
    if (roll === null) {
        process.stderr.write(path + ": no roll_40k function (not 40kdice's dice.js?)\n");
        process.exit(2);
    }
    return { elements, roll, kept };
}

function main() {
    const dice = load(process.argv[2]);
    const lines = readline.createInterface({ input: process.stdin });
    lines.on("line", (line) => {
        if (!line.trim()) {
            return;
        }
        const request = JSON.parse(line);
        for (const id of FIELDS) {
            const v = request.fields[id];
            dice.elements[id].value = typeof v === "boolean" || v == null ? "" : String(v);
            dice.elements[id].checked = v === true;
        }
        const ns = [];
        for (let i = 0; i < request.reps; i++) {
            const t = process.hrtime.bigint();
            dice.roll();
            ns.push(Number(process.hrtime.bigint() - t));
        }
        const figures = {};
        for (const name of ["killed", "damage", "unsaved"]) {
            figures[name] = Array.from(dice.kept[name].normal, (p) => p || 0);
        }
        process.stdout.write(JSON.stringify({ ns, figures }) + "\n");
    });
}

main();
