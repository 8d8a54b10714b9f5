//! SVG safety for shapes: a checker that refuses a `shapeCode` with active or outside-reaching
//! content, and a sanitiser that writes back only an allow-listed tree.
//!
//! Parsed with roxmltree (the XML parser usvg itself uses), with DTDs refused, so entities and
//! external references never expand. Allowed: the SVG drawing elements (shapes, paths, groups,
//! gradients, clips, masks, patterns, filters, text, `<use>`, `<image>` of an embedded picture).
//! Refused: `<script>`, `<foreignObject>`, any element outside the SVG namespace, `on*`
//! attributes, `href`/`xlink:href` to anything but a same-document `#fragment` or a
//! `data:image/{png,jpeg,gif,webp}` picture, `url(…)` to anything but `#fragment`, and `@import`.

use std::fmt::Write as _;

use thiserror::Error;

/// The SVG namespace.
const SVG_NS: &str = "http://www.w3.org/2000/svg";
/// The XLink namespace (`xlink:href`).
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
/// The XML namespace (`xml:space`, `xml:lang`).
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Largest accepted SVG, in bytes: a shape is a small drawing, and the limit bounds parsing.
pub const MAX_SVG_BYTES: usize = 512 * 1024;
/// Most XML nodes accepted (bounds the tree the renderer builds).
const MAX_NODES: u32 = 20_000;

/// Elements written back and accepted; everything else is refused by [`check`] and dropped,
/// with its subtree, by [`sanitise`].
const ELEMENTS: &[&str] = &[
    "svg",
    "g",
    "defs",
    "title",
    "desc",
    "metadata",
    "symbol",
    "use",
    "switch",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "linearGradient",
    "radialGradient",
    "stop",
    "clipPath",
    "mask",
    "pattern",
    "marker",
    "text",
    "tspan",
    "textPath",
    "image",
    "style",
    "filter",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
];

/// Elements whose text is kept (the rest may hold whitespace only).
const TEXT_ELEMENTS: &[&str] = &["title", "desc", "text", "tspan", "textPath", "style"];

/// Pictures an `<image>` may embed.
const DATA_PICTURES: &[&str] = &[
    "data:image/png;",
    "data:image/jpeg;",
    "data:image/jpg;",
    "data:image/gif;",
    "data:image/webp;",
];

/// Why an SVG is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SvgError {
    /// Empty text.
    #[error("the SVG is empty")]
    Empty,
    /// Over [`MAX_SVG_BYTES`].
    #[error("the SVG is larger than {MAX_SVG_BYTES} bytes")]
    TooLarge,
    /// Not well-formed XML, a DTD, or too many nodes.
    #[error("the SVG does not parse: {0}")]
    Parse(String),
    /// The root is not `<svg>` in the SVG namespace.
    #[error("the root element is not <svg>")]
    NotSvg,
    /// An element off the allow-list.
    #[error("element <{0}> is not allowed")]
    Element(String),
    /// An attribute that is refused (`on*`, another namespace).
    #[error("attribute {0} is not allowed")]
    Attribute(String),
    /// A reference out of the document.
    #[error("{0} refers outside the document: {1}")]
    Reference(String, String),
}

fn parse(svg: &str) -> Result<roxmltree::Document<'_>, SvgError> {
    if svg.trim().is_empty() {
        return Err(SvgError::Empty);
    }
    if svg.len() > MAX_SVG_BYTES {
        return Err(SvgError::TooLarge);
    }
    // allow_dtd false: a DOCTYPE (and so any entity, internal or external) is an error.
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(svg, opts)
        .map_err(|e| SvgError::Parse(e.to_string()))?;
    let root = doc.root_element();
    if root.tag_name().name() != "svg" || root.tag_name().namespace() != Some(SVG_NS) {
        return Err(SvgError::NotSvg);
    }
    Ok(doc)
}

/// Returns whether an `href` stays in the document or embeds a picture.
fn safe_href(value: &str) -> bool {
    let v = value.trim();
    if v.starts_with('#') {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    DATA_PICTURES.iter().any(|p| lower.starts_with(p))
}

/// Returns the first `url(…)` target of `text` that is not a same-document fragment, or an
/// `@import`, or an escape (a backslash could spell either in CSS).
fn unsafe_css(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if lower.contains("@import") || lower.contains('\\') {
        return Some(text.chars().take(60).collect());
    }
    let mut rest = lower.as_str();
    while let Some(i) = rest.find("url(") {
        let target = rest[i + 4..]
            .trim_start()
            .trim_start_matches(['"', '\''])
            .trim_start();
        if !target.starts_with('#') {
            return Some(target.chars().take(60).collect());
        }
        rest = &rest[i + 4..];
    }
    None
}

/// Checks one attribute; `Ok(())` keeps it.
fn attribute(element: &str, a: &roxmltree::Attribute<'_, '_>) -> Result<(), SvgError> {
    let name = a.name();
    let shown = || match a.namespace() {
        Some(XLINK_NS) => format!("xlink:{name}"),
        Some(XML_NS) => format!("xml:{name}"),
        _ => name.to_owned(),
    };
    match a.namespace() {
        None | Some(XLINK_NS) | Some(XML_NS) => {}
        Some(ns) => return Err(SvgError::Attribute(format!("{{{ns}}}{name}"))),
    }
    // `get`: a name may start with a character of more than one byte (`中=""`).
    if name.len() > 2 && name.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("on")) {
        return Err(SvgError::Attribute(shown()));
    }
    if name == "href" {
        let ok = safe_href(a.value())
            // Only a picture may be embedded, and only by <image>; everything else links inside.
            && (element == "image" || a.value().trim().starts_with('#'));
        if !ok {
            return Err(SvgError::Reference(
                format!("<{element}> {}", shown()),
                a.value().chars().take(60).collect(),
            ));
        }
    }
    if let Some(target) = unsafe_css(a.value()) {
        return Err(SvgError::Reference(
            format!("<{element}> {}", shown()),
            target,
        ));
    }
    Ok(())
}

/// Checks one element (its name and attributes, and the text of a `<style>`).
fn element(node: roxmltree::Node<'_, '_>) -> Result<(), SvgError> {
    let tag = node.tag_name();
    if tag.namespace() != Some(SVG_NS) || !ELEMENTS.contains(&tag.name()) {
        return Err(SvgError::Element(tag.name().to_owned()));
    }
    for a in node.attributes() {
        attribute(tag.name(), &a)?;
    }
    if tag.name() == "style" {
        let css: String = node.children().filter_map(|c| c.text()).collect();
        if let Some(target) = unsafe_css(&css) {
            return Err(SvgError::Reference("<style>".to_owned(), target));
        }
    }
    Ok(())
}

/// Checks an SVG: `Ok(())` when every element and attribute is allowed, else the first problem.
pub fn check(svg: &str) -> Result<(), SvgError> {
    let doc = parse(svg)?;
    for node in doc.descendants() {
        if node.is_element() {
            element(node)?;
        } else if node.is_pi() {
            return Err(SvgError::Element("?processing-instruction".to_owned()));
        }
    }
    Ok(())
}

fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

fn write(node: roxmltree::Node<'_, '_>, out: &mut String) {
    let name = node.tag_name().name();
    // A refused element goes with its subtree; a refused attribute alone is dropped below.
    if node.tag_name().namespace() != Some(SVG_NS) || !ELEMENTS.contains(&name) {
        return;
    }
    out.push('<');
    out.push_str(name);
    if node.parent().is_some_and(|p| p.is_root()) {
        out.push_str(" xmlns=\"http://www.w3.org/2000/svg\"");
        if node
            .descendants()
            .any(|d| d.attributes().any(|a| a.namespace() == Some(XLINK_NS)))
        {
            out.push_str(" xmlns:xlink=\"http://www.w3.org/1999/xlink\"");
        }
    }
    for a in node.attributes() {
        if attribute(name, &a).is_err() {
            continue;
        }
        let prefix = match a.namespace() {
            Some(XLINK_NS) => "xlink:",
            Some(XML_NS) => "xml:",
            _ => "",
        };
        let _ = write!(out, " {prefix}{}=\"", a.name());
        escape(a.value(), out);
        out.push('"');
    }
    let style_ok = name != "style" || element(node).is_ok();
    let keep_text = TEXT_ELEMENTS.contains(&name) && style_ok;
    out.push('>');
    for child in node.children() {
        if child.is_element() {
            write(child, out);
        } else if let Some(t) = child.text()
            && (keep_text || t.trim().is_empty())
            && child.is_text()
        {
            escape(t, out);
        }
    }
    let _ = write!(out, "</{name}>");
}

/// Writes back the allow-listed part of an SVG: refused elements are dropped with their subtree,
/// refused attributes alone, comments and processing instructions always. The result passes
/// [`check`].
pub fn sanitise(svg: &str) -> Result<String, SvgError> {
    let doc = parse(svg)?;
    let mut out = String::with_capacity(svg.len());
    write(doc.root_element(), &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(body: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             viewBox=\"0 0 100 100\">{body}</svg>"
        )
    }

    #[test]
    fn plain_drawings_pass_and_survive_sanitising() {
        let s = svg(
            "<defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"red\"/></linearGradient></defs>\
             <rect width=\"10\" height=\"10\" fill=\"url(#g)\"/><use href=\"#g\"/>\
             <text x=\"1\" y=\"2\">a &amp; b</text>",
        );
        check(&s).unwrap_or_else(|e| panic!("{e}"));
        let clean = sanitise(&s).unwrap_or_else(|e| panic!("{e}"));
        check(&clean).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            clean.contains("url(#g)") && clean.contains("a &amp; b"),
            "{clean}"
        );
    }

    #[test]
    fn unsafe_content_is_refused_and_dropped() {
        let cases = [
            "<script>alert(1)</script>",
            "<rect onclick=\"alert(1)\"/>",
            "<rect ONLOAD=\"alert(1)\"/>",
            "<foreignObject><div xmlns=\"http://www.w3.org/1999/xhtml\">x</div></foreignObject>",
            "<image href=\"https://example.com/a.png\"/>",
            "<image xlink:href=\"file:///etc/passwd\"/>",
            "<image href=\"/etc/passwd\"/>",
            "<image href=\"data:image/svg+xml;base64,PHN2Zz4=\"/>",
            "<use href=\"other.svg#a\"/>",
            "<use href=\"data:image/png;base64,AAAA\"/>",
            "<rect fill=\"url(http://example.com/x)\"/>",
            "<rect style=\"fill: url( 'file:///x' )\"/>",
            "<rect style=\"fill: u\\72l(x)\"/>",
            "<style>@import url(#a);</style>",
            "<style>rect { fill: url(https://example.com/) }</style>",
            "<a href=\"#x\"><rect/></a>",
            "<x:script xmlns:x=\"http://www.w3.org/2000/svg\">1</x:script>",
            "<h:p xmlns:h=\"http://www.w3.org/1999/xhtml\">x</h:p>",
            "<rect xmlns:e=\"urn:evil\" e:thing=\"1\"/>",
            "<?evil x?>",
        ];
        for body in cases {
            let s = svg(body);
            assert!(check(&s).is_err(), "accepted {body}");
            let clean = sanitise(&s).unwrap_or_else(|e| panic!("{e}"));
            check(&clean).unwrap_or_else(|e| panic!("{body} → {clean}: {e}"));
            for bad in [
                "script",
                "onclick",
                "ONLOAD",
                "foreignObject",
                "example.com",
                "file:",
                "/etc",
                "@import",
                "evil",
            ] {
                assert!(!clean.contains(bad), "{body} → {clean}");
            }
        }
    }

    #[test]
    fn doctypes_and_entities_are_refused() {
        let s = "<!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\
                 <svg xmlns=\"http://www.w3.org/2000/svg\"><text>&x;</text></svg>";
        assert!(matches!(check(s), Err(SvgError::Parse(_))));
        assert!(sanitise(s).is_err());
    }

    #[test]
    fn embedded_pictures_are_allowed() {
        check(&svg(
            "<image href=\"data:image/png;base64,iVBORw0KGgo=\" width=\"1\" height=\"1\"/>",
        ))
        .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn not_svg_and_empty_are_refused() {
        assert_eq!(check(""), Err(SvgError::Empty));
        assert_eq!(check("<html/>"), Err(SvgError::NotSvg));
        assert_eq!(check("<svg/>"), Err(SvgError::NotSvg));
        assert!(matches!(check("<svg"), Err(SvgError::Parse(_))));
        assert_eq!(
            check(&"x".repeat(MAX_SVG_BYTES + 1)),
            Err(SvgError::TooLarge)
        );
    }
}
