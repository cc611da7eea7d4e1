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

  function number(text) {
    return text.trim() === "" || isNaN(Number(text)) ? null : Number(text);
  }

  function compare(a, b) {
    const x = number(a), y = number(b);
    if (x !== null && y !== null) return x - y;
    if (x !== null) return -1;  // numbers before text and empty cells
    if (y !== null) return 1;
    return a.localeCompare(b);
  }

  function sortRows() {
    const index = headers.findIndex(function (cell) { return cell.dataset.name === sortName; });
    const rows = original.slice();
    if (index >= 0) {
      rows.sort(function (a, b) {
        const order = compare(a.cells[index].textContent, b.cells[index].textContent);
        return descending ? -order : order;
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
    shown.textContent = count + " of " + original.length + " rows shown";
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
      select.value = Array.from(select.options).some(function (o) { return o.value === wanted; }) ? wanted : "";
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
