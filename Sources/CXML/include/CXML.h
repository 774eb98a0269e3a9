/// CXML: libxml2's pull reader (xmlTextReader), loaded the first time a document is read
/// (dlopen of libxml2.so.2) rather than linked, so that a run that reads no Metalink does not
/// load libxml2 and the ICU libraries it needs: 1.4 ms of every start.
#ifndef HAUL_CXML_H
#define HAUL_CXML_H

#include <stddef.h>

/// A reader over one document in memory; read it with `haul_xml_read`, free it with
/// `haul_xml_close`. Not thread-safe: one thread reads it.
typedef struct haul_xml_reader haul_xml_reader;

/// libxml2's node types that a reader reports (xmlReaderTypes).
enum {
    HAUL_XML_ELEMENT = 1,
    HAUL_XML_TEXT = 3,
    HAUL_XML_CDATA = 4,
    HAUL_XML_ENTITY_REFERENCE = 5,
    HAUL_XML_DOCUMENT_TYPE = 10,
    HAUL_XML_WHITESPACE = 13,
    HAUL_XML_SIGNIFICANT_WHITESPACE = 14,
    HAUL_XML_END_ELEMENT = 15,
};

/// A reader over `size` bytes at `bytes` (which must outlive it), with the network and entity
/// substitution off. NULL when libxml2 cannot be loaded or the reader not made; then
/// `problem` (of `problem_size` bytes) says why.
haul_xml_reader *haul_xml_open(const char *bytes, int size, char *problem, size_t problem_size);

/// Moves to the next node: 1, 0 at the document's end, -1 on an error (`haul_xml_error`).
int haul_xml_read(haul_xml_reader *reader);

/// The current node's type (HAUL_XML_…), local name, namespace URI and value (text), and
/// whether an element is empty (`<a/>`, which has no end element). A string is NULL when the
/// node has none; it lives until the reader moves.
int haul_xml_node_type(haul_xml_reader *reader);
const char *haul_xml_local_name(haul_xml_reader *reader);
const char *haul_xml_namespace(haul_xml_reader *reader);
const char *haul_xml_value(haul_xml_reader *reader);
int haul_xml_is_empty_element(haul_xml_reader *reader);

/// Moves to the current element's next attribute (1), or back to the element when there is no
/// other (0). While on an attribute, `haul_xml_local_name` and `haul_xml_value` name it.
int haul_xml_next_attribute(haul_xml_reader *reader);

/// The line of the current node (where an element starts), else the one the parser is at.
int haul_xml_line(haul_xml_reader *reader);

/// The line the parser is at, which is ahead of the current node: where an error was found.
int haul_xml_parser_line(haul_xml_reader *reader);

/// The first error libxml2 reported, without its line break; NULL when none.
const char *haul_xml_error(haul_xml_reader *reader);

void haul_xml_close(haul_xml_reader *reader);

#endif
