// Prints what gift-pegjs makes of each GIFT file named on the command line, as JSON: {file: questions | {error}}.
const fs = require("fs");
const parser = require("gift-pegjs");
const out = {};
for (const name of process.argv.slice(2)) {
  try {
    out[name] = parser.parse(fs.readFileSync(name, "utf8"));
  } catch (error) {
    out[name] = { error: String(error.message || error) };
  }
}
process.stdout.write(JSON.stringify(out));
