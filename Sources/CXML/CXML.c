#include "CXML.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// libxml2's parser options (xmlParserOption): no network access, no warnings or errors
/// printed (they are collected), and line numbers past 65535 kept (a Metalink of many files).
enum {
    XML_PARSE_NOERROR = 1 << 5,
    XML_PARSE_NOWARNING = 1 << 6,
    XML_PARSE_NONET = 1 << 11,
    XML_PARSE_BIG_LINES = 1 << 22,
};

typedef void (*error_handler)(void *context, const char *message, int severity, void *locator);

/// libxml2's functions, looked up once.
static struct {
    void (*init_parser)(void);
    void *(*reader_for_memory)(const char *, int, const char *, const char *, int);
    int (*read)(void *);
    int (*node_type)(void *);
    const unsigned char *(*local_name)(void *);
    const unsigned char *(*namespace_uri)(void *);
    const unsigned char *(*value)(void *);
    int (*is_empty_element)(void *);
    int (*move_to_next_attribute)(void *);
    int (*move_to_element)(void *);
    int (*line_number)(void *);
    void *(*current_node)(void *);
    long (*node_line)(void *);
    void (*set_error_handler)(void *, error_handler, void *);
    void (*free_reader)(void *);
} xml;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static char load_problem[256];

#define LOOK_UP(field, name)                                                                          \
    if ((*(void **)&xml.field = dlsym(library, name)) == NULL) {                                      \
        snprintf(load_problem, sizeof load_problem, "libxml2 has no %s", name);                        \
        return;                                                                                        \
    }

static void load(void) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_problem, sizeof load_problem, "libxml2 cannot be loaded (%s); install libxml2",
                 reason ? reason : "libxml2.so.2 not found");
        return;
    }
    LOOK_UP(init_parser, "xmlInitParser")
    LOOK_UP(reader_for_memory, "xmlReaderForMemory")
    LOOK_UP(read, "xmlTextReaderRead")
    LOOK_UP(node_type, "xmlTextReaderNodeType")
    LOOK_UP(local_name, "xmlTextReaderConstLocalName")
    LOOK_UP(namespace_uri, "xmlTextReaderConstNamespaceUri")
    LOOK_UP(value, "xmlTextReaderConstValue")
    LOOK_UP(is_empty_element, "xmlTextReaderIsEmptyElement")
    LOOK_UP(move_to_next_attribute, "xmlTextReaderMoveToNextAttribute")
    LOOK_UP(move_to_element, "xmlTextReaderMoveToElement")
    LOOK_UP(line_number, "xmlTextReaderGetParserLineNumber")
    LOOK_UP(current_node, "xmlTextReaderCurrentNode")
    LOOK_UP(node_line, "xmlGetLineNo")
    LOOK_UP(set_error_handler, "xmlTextReaderSetErrorHandler")
    LOOK_UP(free_reader, "xmlFreeTextReader")
    xml.init_parser();
}

struct haul_xml_reader {
    void *reader;
    char error[256];
};

static void collect_error(void *context, const char *message, int severity, void *locator) {
    (void)severity;
    (void)locator;
    struct haul_xml_reader *reader = context;
    if (reader->error[0] != '\0' || message == NULL) return;
    snprintf(reader->error, sizeof reader->error, "%s", message);
    size_t length = strlen(reader->error);
    while (length > 0 && (reader->error[length - 1] == '\n' || reader->error[length - 1] == ' ')) {
        reader->error[--length] = '\0';
    }
}

haul_xml_reader *haul_xml_open(const char *bytes, int size, char *problem, size_t problem_size) {
    pthread_once(&loaded, load);
    if (load_problem[0] != '\0') {
        snprintf(problem, problem_size, "%s", load_problem);
        return NULL;
    }
    struct haul_xml_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        snprintf(problem, problem_size, "out of memory");
        return NULL;
    }
    reader->reader = xml.reader_for_memory(bytes, size, NULL, "UTF-8",
                                           XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                               XML_PARSE_BIG_LINES);
    if (reader->reader == NULL) {
        free(reader);
        snprintf(problem, problem_size, "libxml2 could not start a reader");
        return NULL;
    }
    xml.set_error_handler(reader->reader, collect_error, reader);
    return reader;
}

int haul_xml_read(haul_xml_reader *reader) { return xml.read(reader->reader); }
int haul_xml_node_type(haul_xml_reader *reader) { return xml.node_type(reader->reader); }
const char *haul_xml_local_name(haul_xml_reader *reader) { return (const char *)xml.local_name(reader->reader); }
const char *haul_xml_namespace(haul_xml_reader *reader) { return (const char *)xml.namespace_uri(reader->reader); }
const char *haul_xml_value(haul_xml_reader *reader) { return (const char *)xml.value(reader->reader); }
int haul_xml_is_empty_element(haul_xml_reader *reader) { return xml.is_empty_element(reader->reader); }
int haul_xml_parser_line(haul_xml_reader *reader) { return xml.line_number(reader->reader); }

int haul_xml_line(haul_xml_reader *reader) {
    void *node = xml.current_node(reader->reader);
    long line = node ? xml.node_line(node) : -1;
    return line > 0 ? (int)line : xml.line_number(reader->reader);
}
const char *haul_xml_error(haul_xml_reader *reader) { return reader->error[0] ? reader->error : NULL; }

int haul_xml_next_attribute(haul_xml_reader *reader) {
    if (xml.move_to_next_attribute(reader->reader) == 1) return 1;
    xml.move_to_element(reader->reader);
    return 0;
}

void haul_xml_close(haul_xml_reader *reader) {
    if (reader == NULL) return;
    xml.free_reader(reader->reader);
    free(reader);
}
