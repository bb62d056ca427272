/**
 * Swagger UI, served under each release's index, renders that release's document in headless
 * Chromium under the pages' Content-Security-Policy (no inline script, nothing from elsewhere):
 * every operation and every model, with no script error or policy violation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../support/api.js";
import { acad, basic, RELEASES, USUARIOS } from "../academic/support.js";
import { launch, screenshot } from "./support.js";

let browser: Awaited<ReturnType<typeof launch>>;

beforeAll(async () => {
  browser = await launch();
  await browser.context.setExtraHTTPHeaders({ Authorization: basic(USUARIOS.verificador.usuario, USUARIOS.verificador.password) });
});
afterAll(async () => {
  await browser?.close();
});

describe("Swagger UI", () => {
  for (const { release, base } of RELEASES) {
    it(`${base}/swagger-ui renders the ${release} document`, async () => {
      const doc = (await acad("GET", `${base}/api-docs`)).body as { paths: Record<string, Record<string, unknown>>; definitions: Record<string, unknown> };
      const operaciones = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
      const { page } = browser;
      const problemas: string[] = [];
      page.on("pageerror", (e) => problemas.push(`pageerror: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error") problemas.push(`console: ${m.text()}`);
      });
      const pedidos: string[] = [];
      page.on("request", (r) => pedidos.push(r.url()));

      await page.goto(`${baseUrl()}${base}/swagger-ui`);
      await expect.poll(() => page.locator(".swagger-ui .info .title").innerText()).toContain(`API REST académica (SIU-Guaraní ${release})`);
      await expect.poll(() => page.locator(".opblock").count()).toBe(operaciones);
      expect(await page.locator(".opblock-summary-path").allInnerTexts()).toEqual(expect.arrayContaining(["/aulas-uni", "/aulas-uni/{id_aula}", "/docentes-uni/{id_docente}/comisiones"]));
      const modelos = await page.locator(".models .model-container").count();
      expect(modelos).toBe(Object.keys(doc.definitions).length);
      expect(await page.locator(".errors-wrapper").count()).toBe(0);

      // Descriptions are Markdown with inline HTML: `<condicion>` and `<id>` must show as written,
      // not be taken for tags and dropped, while the notes' own markup (<b>) still renders.
      await page.locator("#operations-aulas-uni-get_aulas_uni .opblock-summary").click();
      const filtro = page.locator('#operations-aulas-uni-get_aulas_uni tr[data-param-name="nombre"] .parameters-col_description .markdown');
      await expect.poll(() => filtro.innerText()).toBe("Filtro por nombre. Formato: <condicion>;<valor>.");
      await page.locator("#operations-docentes-uni-put_docentes_uni_by_id_docente .opblock-summary").click();
      const creado = page.locator('#operations-docentes-uni-put_docentes_uni_by_id_docente tr.response[data-code="201"] .response-col_description');
      await expect.poll(() => creado.innerText()).toMatch(/^Docente creado: \{.docente.: <id>\}$/);
      await page.locator("#operations-docentes-uni-get_docentes_uni .opblock-summary").click();
      await expect.poll(() => page.locator("#operations-docentes-uni-get_docentes_uni .opblock-description-wrapper b").innerText()).toBe("activos");
      await screenshot(page, `swagger-ui-${release}.png`);

      expect(problemas).toEqual([]);
      expect(pedidos.every((u) => u.startsWith(baseUrl()) || u.startsWith("data:"))).toBe(true);
      page.removeAllListeners();
    });
  }
});
