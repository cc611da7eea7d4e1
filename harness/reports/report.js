// crosscheck report: sort and filter the run table, choose a scatter plot. No dependencies.
// The view lives in the address's fragment (#verdict=agree&sort=seconds&desc=1), so a
// filtered view can be bookmarked or sent. When everything is set up, <html> gets
// data-ready="yes" (a check that the script ran without error).
"use strict";
(function () {
  const table = document.getElementById("runs");
  const body = table.tBodies[0];
  const headers = Array.from(table.tHead.rows[0].cells);
  const filters = Array.from(document.querySelectorAll("select[data-filter]"));
  const search = document.getElementById("search");
  const shown = document.getElementById("shown");
  const original = Array.from(body.rows);
  let sortName = "";
  let descending = false;

  // A cell's sort key: the number the page put in data-key for a numeric column, else its
  // text; null for an empty cell, which sorts last whichever the direction.
  function key(row, index) {
    const cell = row.cells[index];
    if (headers[index].dataset.numeric) return cell.dataset.key ? Number(cell.dataset.key) : null;
    const text = cell.textContent.trim();
    return text === "" ? null : text;
  }

  function compare(x, y) {
    return typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
  }

  function sortRows() {
    const index = headers.findIndex(function (cell) { return cell.dataset.name === sortName; });
    const rows = original.slice();
    if (index >= 0) {
      rows.sort(function (a, b) {
        const x = key(a, index), y = key(b, index);
        if (x === null || y === null) return (x === null) - (y === null);
        return descending ? -compare(x, y) : compare(x, y);
      });
    }
    rows.forEach(function (row) { body.appendChild(row); });
    headers.forEach(function (cell) {
      cell.setAttribute("aria-sort", cell.dataset.name !== sortName ? "none" : descending ? "descending" : "ascending");
    });
  }

  function applyFilters() {
    const text = search.value.trim().toLowerCase();
    let count = 0;
    original.forEach(function (row) {
      const visible = filters.every(function (select) {
        return select.value === "" || row.dataset[select.dataset.filter] === select.value;
      }) && (text === "" || row.textContent.toLowerCase().includes(text));
      row.hidden = !visible;
      if (visible) count += 1;
    });
    const unmatched = filters.filter(function (select) {
      return select.selectedOptions.length && select.selectedOptions[0].dataset.unmatched;
    }).map(function (select) { return select.dataset.filter + " " + select.value; });
    shown.textContent = count + " of " + original.length + " rows shown" +
      (unmatched.length ? "; no row on this page has " + unmatched.join(", ") : "");
  }

  function saveView() {
    const view = new URLSearchParams();
    filters.forEach(function (select) { if (select.value) view.set(select.dataset.filter, select.value); });
    if (search.value) view.set("q", search.value);
    if (sortName) view.set("sort", sortName);
    if (descending) view.set("desc", "1");
    history.replaceState(null, "", "#" + view.toString());
  }

  function loadView() {
    const view = new URLSearchParams(location.hash.slice(1));
    filters.forEach(function (select) {
      const wanted = view.get(select.dataset.filter) || "";
      if (!Array.from(select.options).some(function (o) { return o.value === wanted; })) {
        // a bookmarked value no row has: keep it (no row shown, and a note), never drop the filter
        const option = new Option(wanted + " (no row)", wanted);
        option.dataset.unmatched = "yes";
        select.add(option);
      }
      select.value = wanted;
    });
    search.value = view.get("q") || "";
    sortName = view.get("sort") || "";
    descending = view.get("desc") === "1";
  }

  function update() {
    sortRows();
    applyFilters();
    saveView();
  }

  headers.forEach(function (cell) {
    cell.addEventListener("click", function () {
      descending = sortName === cell.dataset.name ? !descending : false;
      sortName = cell.dataset.name;
      update();
    });
  });
  filters.forEach(function (select) { select.addEventListener("change", update); });
  search.addEventListener("input", update);

  const pair = document.getElementById("pair");
  function showPair() {
    document.querySelectorAll("figure[data-pair]").forEach(function (figure) {
      figure.hidden = figure.dataset.pair !== pair.value;
    });
  }
  if (pair) {
    pair.addEventListener("change", showPair);
    showPair();
  }

  loadView();
  sortRows();
  applyFilters();
  document.documentElement.dataset.ready = "yes";
})();
