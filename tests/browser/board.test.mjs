// chuhan serve's page in a real browser: Debian's Chromium, headless, driven by playwright-core.
// Starts the release binary (CHUHAN, default target/release/chuhan) on a free loopback port,
// plays a move by clicking two points, sees chuhan's reply on the board, reads the analysis
// lines, drags a piece, saves a screenshot (SCREENSHOT, default in the
// temporary folder) that must not be blank, and refuses a bad FEN on the page.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
const binary = process.env.CHUHAN || join(root, "target/release/chuhan");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const screenshot = process.env.SCREENSHOT || join(tmpdir(), "chuhan-serve.png");
// Generous: the engine and the browser share two cores with whatever else runs.
const WAIT = 60_000;

async function startServer() {
  const server = spawn(binary, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  for await (const chunk of server.stdout) {
    out += chunk;
    const m = out.match(/http:\/\/[\d.]+:\d+\//);
    if (m) return { server, url: m[0] };
  }
  throw new Error(`chuhan serve printed no address: ${out}`);
}

// The square's centre on the screen, as a person would aim at it. Found and measured in one
// step inside the page: each state message redraws the board, so an element found in one round
// trip may be gone by the next.
async function centre(page, sq) {
  const found = await page.waitForFunction((name) => {
    const r = document.querySelector(`[data-sq="${name}"]`)?.getBoundingClientRect();
    return r && r.width > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null;
  }, sq, { timeout: WAIT });
  return found.jsonValue();
}

test("a game and an analysis on the page", async () => {
  const { server, url } = await startServer();
  const browser = await chromium.launch({
    executablePath: browserPath,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 820 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Red to move"), null, { timeout: WAIT });
    assert.equal(await page.locator("[data-piece]").count(), 32, "32 pieces on the board");

    await page.selectOption("#movetime", "500");
    await page.waitForFunction(() => document.getElementById("movetime").value === "500");

    // Click the cannon, then the centre file: the legal targets show after the first click.
    await page.mouse.click(...(await centre(page, "h2")));
    await page.locator(".target").first().waitFor({ timeout: WAIT });
    const targets = await page.locator(".target").evaluateAll((ts) => ts.map((t) => t.dataset.target));
    assert.ok(targets.includes("e2") && targets.includes("h9"), `the cannon's targets: ${targets}`);
    await page.mouse.click(...(await centre(page, "e2")));

    // chuhan's reply appears in the move list and on the board.
    await page.waitForFunction(() => document.querySelectorAll("#moves .move").length === 2, null, { timeout: WAIT });
    const iccs = await page.locator("#moves .iccs").allTextContents();
    assert.equal(iccs[0].trim(), "h2e2");
    const reply = iccs[1].trim();
    assert.match(reply, /^[a-i]\d[a-i]\d$/);
    assert.equal(await page.locator('[data-piece="e2"]').getAttribute("data-letter"), "C");
    assert.equal(await page.locator(`[data-piece="${reply.slice(2)}"]`).count(), 1, "the reply's piece stands on its target");
    assert.equal(await page.locator(`[data-piece="${reply.slice(0, 2)}"]`).count(), 0, "and left its point");
    const letter = await page.locator(`[data-piece="${reply.slice(2)}"]`).getAttribute("data-letter");
    assert.equal(letter, letter.toLowerCase(), "a black piece moved");
    assert.deepEqual((await page.locator("[data-last]").evaluateAll((r) => r.map((x) => x.dataset.last))).sort(), [reply.slice(0, 2), reply.slice(2)].sort());
    const chinese = await page.locator("#moves .move").allTextContents();
    assert.equal(chinese[0].trim(), "炮二平五");

    // Analysis: three lines that deepen, in Chinese notation, with a score.
    await page.selectOption("#multipv", "3");
    await page.selectOption("#mode", "analyze");
    await page.waitForFunction(() => {
      const lines = [...document.querySelectorAll("#lines li.line")];
      return lines.length === 3 && lines.every((li) => Number(li.dataset.depth) >= 6);
    }, null, { timeout: WAIT });
    const lines = await page.locator("#lines li.line .pv").allTextContents();
    for (const l of lines) assert.match(l, /[一二三四五六七八九１-９1-9][进退平]/u, `a line in Chinese notation: ${l}`);
    assert.match(await page.locator("#summary").textContent(), /depth \d+/);
    assert.ok(await page.locator("#graph polyline").count() === 1, "the score graph has a line");

    // Drag a piece: the horse from h0 to g2; the analysis starts again on the new position.
    await page.mouse.move(...(await centre(page, "h0")));
    await page.mouse.down();
    await page.mouse.move(...(await centre(page, "g2")), { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelectorAll("#moves .move").length === 3, null, { timeout: WAIT });
    assert.equal(await page.locator('[data-piece="g2"]').getAttribute("data-letter"), "N");
    await page.waitForFunction(() => {
      const lines = [...document.querySelectorAll("#lines li.line")];
      return lines.length === 3 && lines.every((li) => Number(li.dataset.depth) >= 8);
    }, null, { timeout: WAIT });

    await page.screenshot({ path: screenshot });
    // Not blank: many colours, and no colour covers nearly all of it.
    const spread = await page.evaluate(async (data) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.width; c.height = img.height;
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      const counts = new Map();
      for (let i = 0; i < px.length; i += 4) {
        const k = (px[i] >> 4) << 8 | (px[i + 1] >> 4) << 4 | px[i + 2] >> 4;
        counts.set(k, (counts.get(k) || 0) + 1);
      }
      return { colours: counts.size, top: Math.max(...counts.values()) / (px.length / 4) };
    }, (await page.screenshot()).toString("base64"));
    assert.ok(spread.colours > 50 && spread.top < 0.6, `the screenshot is not blank: ${JSON.stringify(spread)}`);
    // A bad FEN is refused on the page and the game stays.
    await page.fill("#fen", "this is not a position");
    await page.click("#load-fen");
    await page.locator("#message:not([hidden])").waitFor({ timeout: WAIT });
    assert.match(await page.locator("#message").textContent(), /bad FEN/);
    assert.equal(await page.locator("#moves .move").count(), 3);

    assert.deepEqual(errors, [], "no script errors");
  } finally {
    await browser.close();
    server.kill();
    await once(server, "exit");
  }
});
