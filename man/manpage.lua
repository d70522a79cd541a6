-- SPDX-License-Identifier: MIT
-- A pandoc filter that turns one of bm's manuals (docs/*.md) into a man
-- page, so the manual and the page are one text.  The manual's title is
-- "# NAME — what it does"; its first code block, when it is the command's
-- usage (or libbm's #include), becomes SYNOPSIS; the text before the first
-- "##" is DESCRIPTION; "##" and "###" become .SH and .SS.  Links to other
-- manuals name their page ("bm-upload(1)") or their file (docs/X.md).
-- The section comes from the command line: -M section=N.

local pages = {
  ["bm-run"] = "bm-run(1)", ["bm-profile"] = "bm-profile(1)", ["bm-upload"] = "bm-upload(1)",
  ["bm-check"] = "bm-check(1)", ["bm-import"] = "bm-import(1)", ["bm-server"] = "bm-server(8)",
  ["libbm"] = "libbm(3)", ["report-format"] = "bm-report(5)",
}
local see_also = { "bm-run(1)", "bm-profile(1)", "bm-upload(1)", "bm-check(1)", "bm-import(1)",
  "bm-server(8)", "libbm(3)", "bm-report(5)" }

local stringify = pandoc.utils.stringify

-- A link to another manual names its page, one to a section of this one
-- or to a source file is its text; a web address stays a link.
local function link(l)
  if l.target:match("^%a+://") then
    return nil
  end
  local doc = l.target:match("^([%w%-]+)%.md")
  local out = l.content
  if doc and pages[doc] then
    if stringify(l.content) ~= pages[doc]:match("^[^(]+") then
      out:insert(pandoc.Str(" (" .. pages[doc] .. ")"))
    end
  elseif doc then
    out:insert(pandoc.Str(" (docs/" .. doc .. ".md)"))
  end
  return out
end

-- A table is a list of tagged paragraphs, as man pages write them: the
-- first cell is the tag; a two-column table's second cell is the text,
-- a wider table's other cells are one paragraph each, led by their
-- column's heading.  (Narrow tbl columns cannot hold the long words of
-- options and paths.)
local function table_to_list(t)
  local headings = {}
  if t.head and t.head.rows and t.head.rows[1] then
    for i, cell in ipairs(t.head.rows[1].cells) do
      headings[i] = stringify(cell.contents)
    end
  end
  local items = pandoc.List()
  for _, body in ipairs(t.bodies) do
    for _, row in ipairs(body.body) do
      local text = pandoc.List()
      if #row.cells == 2 then
        text:extend(row.cells[2].contents)
      else
        for i = 2, #row.cells do
          local inlines = pandoc.utils.blocks_to_inlines(row.cells[i].contents)
          if #inlines > 0 then
            local para = pandoc.List({ pandoc.Emph({ pandoc.Str((headings[i] or "") .. ":") }), pandoc.Space() })
            para:extend(inlines)
            text:insert(pandoc.Para(para))
          end
        end
      end
      items:insert({ pandoc.utils.blocks_to_inlines(row.cells[1].contents), { text } })
    end
  end
  return pandoc.DefinitionList(items)
end

-- Sections are upper case, as in every man page.
local function upper_header(h)
  if h.level == 1 then
    h.content = { pandoc.Str(pandoc.text.upper(stringify(h.content))) }
  end
  return h
end

local function is_synopsis(block, name)
  if block.t ~= "CodeBlock" then
    return false
  end
  return block.text:sub(1, #name) == name or block.text:match("^#include") ~= nil
end

local function Pandoc(doc)
  local blocks = doc.blocks
  assert(blocks[1] and blocks[1].t == "Header" and blocks[1].level == 1,
    "a manual starts with its title: # NAME — what it does")
  local name, purpose = stringify(blocks[1]):match("^(%S+)%s+—%s+(.+)$")
  assert(name, "the title must read '# NAME — what it does', not '" .. stringify(blocks[1]) .. "'")
  local section = stringify(doc.meta.section or "")
  assert(section:match("^%d$"), "give the section: -M section=N")

  local out = pandoc.List()
  out:insert(pandoc.Header(1, "NAME"))
  out:insert(pandoc.Para({ pandoc.Str(name .. " - " .. purpose) }))
  local intro, rest = pandoc.List(), pandoc.List()
  local synopsis
  local i = 2
  while blocks[i] and not (blocks[i].t == "Header" and blocks[i].level == 2) do
    if not synopsis and is_synopsis(blocks[i], name) then
      synopsis = blocks[i]
    else
      intro:insert(blocks[i])
    end
    i = i + 1
  end
  for j = i, #blocks do
    local b = blocks[j]
    if b.t == "Header" then
      b.level = b.level == 2 and 1 or 2
    end
    rest:insert(b)
  end
  if synopsis then
    out:insert(pandoc.Header(1, "SYNOPSIS"))
    out:insert(synopsis)
  end
  if #intro > 0 then
    out:insert(pandoc.Header(1, "DESCRIPTION"))
    out:extend(intro)
  end
  out:extend(rest)
  out:insert(pandoc.Header(1, "SEE ALSO"))
  local others = pandoc.List()
  for _, page in ipairs(see_also) do
    if page ~= name .. "(" .. section .. ")" then
      others:insert(page)
    end
  end
  out:insert(pandoc.Para({ pandoc.Str(table.concat(others, ", ") ..
    ". The manuals these pages come from, and the others (the cycle model, determinism, the engine, " ..
    "deploying, CI), are in bm's docs/ directory and installed in its documentation directory.") }))

  doc.meta.title = pandoc.MetaString(name:upper())
  doc.blocks = out
  return doc:walk({ Header = upper_header })
end

return { { Link = link, Table = table_to_list }, { Pandoc = Pandoc } }
