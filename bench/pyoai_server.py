"""A pyoai peer for the benchmark: the same repository, served by pyoai.

pyoai (the Python package `oaipmh`, https://github.com/infrae/pyoai) is not
part of this project and is never committed here: fetch it yourself and pass
the folder holding its `oaipmh` package. It needs lxml and six (Debian:
python3-lxml python3-six).

This is the data provider a careful pyoai user writes: an IBatchingOAI
implementation behind pyoai's BatchingServer over the benchmark's SQLite store
(read only), in the same (datestamp, pk) order. pyoai's resumption tokens
carry only a cursor (a position), which a plain implementation turns into
`OFFSET cursor`, a scan that grows with every page; this one remembers where
each page it served ended, so the page a harvester asks for next is a keyset
range like oai-steward's, and falls back to OFFSET for a cursor it has not
seen (a token from before a restart). `--paging offset` serves every page by
OFFSET instead, as the plain implementation does. pyoai writes oai_dc from a map of Dublin Core element names to values
(its `oai_dc_writer`), so each page's stored oai_dc is parsed into that map
with lxml. HTTP is Python's standard library, HTTP/1.1 with keep-alive and
Nagle's algorithm off, one request at a time (the benchmark's single harvester
follows tokens one by one).

    python3 bench/pyoai_server.py --pyoai DIR --db STORE.sqlite --port N --base-url URL [--paging keyset|offset]

It prints `listening <port>` when it is ready.
"""
import argparse
import sqlite3
import sys
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qsl, urlsplit

DC_NS = '{http://purl.org/dc/elements/1.1/}'
SEPARATOR = '\x1f'  # items.direct_sets joins set specs with U+001F


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pyoai', required=True, help='folder holding the oaipmh package')
    ap.add_argument('--db', required=True)
    ap.add_argument('--port', type=int, required=True)
    ap.add_argument('--base-url', required=True)
    ap.add_argument('--batch', type=int, default=100)
    ap.add_argument('--paging', choices=['keyset', 'offset'], default='keyset')
    a = ap.parse_args()
    sys.path.insert(0, a.pyoai)
    from lxml import etree
    from oaipmh import common, error, metadata, server

    db = sqlite3.connect('file:%s?mode=ro' % a.db, uri=True, check_same_thread=False)

    def when(seconds):
        return datetime.fromtimestamp(int(seconds), tz=timezone.utc).replace(tzinfo=None)

    def seconds(dt):
        return int(dt.replace(tzinfo=timezone.utc).timestamp())

    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    ends = {}  # (list arguments, cursor) -> (datestamp, pk) of the last item before that cursor

    def dc_map(xml):
        out = {}
        for el in etree.fromstring(xml.encode('utf-8'), parser):
            if isinstance(el.tag, str) and el.tag.startswith(DC_NS):
                out.setdefault(el.tag[len(DC_NS):], []).append(el.text or '')
        return out

    def header(row):
        sets = row[4].split(SEPARATOR) if row[4] else []
        return common.Header(None, row[1], when(row[2]), sets, bool(row[3]))

    class Peer(object):
        """pyoai's IBatchingOAI over the store: every list is an OFFSET page."""

        def identify(self):
            first = db.execute('SELECT min(datestamp) FROM items').fetchone()[0] or 0
            return common.Identify(
                repositoryName='oai-steward benchmark (pyoai peer)', baseURL=a.base_url, protocolVersion='2.0',
                adminEmails=['bench@example.org'], earliestDatestamp=when(first), deletedRecord='persistent',
                granularity='YYYY-MM-DDThh:mm:ssZ', compression=['identity'])

        def listMetadataFormats(self, identifier=None):
            return [('oai_dc', 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd', 'http://www.openarchives.org/OAI/2.0/oai_dc/')]

        def listSets(self, cursor=0, batch_size=10):
            return [(r[0], r[1], None) for r in db.execute('SELECT spec, name FROM sets ORDER BY spec LIMIT ? OFFSET ?', (batch_size, cursor))]

        def _rows(self, with_xml, metadataPrefix, set, from_, until, cursor, batch_size):
            if metadataPrefix != 'oai_dc':
                raise error.CannotDisseminateFormatError(metadataPrefix)
            cols = 'i.pk, i.identifier, i.datestamp, i.deleted, i.direct_sets' + (', r.xml' if with_xml else '')
            sql = 'SELECT %s FROM items i JOIN records r ON r.item_pk = i.pk AND r.prefix = ?' % cols
            params = [metadataPrefix]
            if set is not None:
                sql += ' JOIN item_sets s ON s.item_pk = i.pk AND s.spec = ?'
                params.append(set)
            sql += ' WHERE 1 = 1'
            if from_ is not None:
                sql += ' AND i.datestamp >= ?'
                params.append(seconds(from_))
            if until is not None:
                sql += ' AND i.datestamp <= ?'
                params.append(seconds(until))
            key = (with_xml, metadataPrefix, set, from_, until)
            after = ends.get((key, cursor)) if a.paging == 'keyset' else None
            if after is not None:
                sql += ' AND (i.datestamp, i.pk) > (?, ?)'
                params += list(after)
            sql += ' ORDER BY i.datestamp, i.pk LIMIT ? OFFSET ?'
            params += [batch_size, 0 if after is not None else cursor]
            rows = db.execute(sql, params).fetchall()
            if not rows and cursor == 0:
                raise error.NoRecordsMatchError('no records match')
            # BatchingResumption asks for one row more than a page and shows batch_size - 1:
            # the next page starts after the last row shown.
            shown = rows[:batch_size - 1]
            if shown:
                ends[(key, cursor + len(shown))] = (shown[-1][2], shown[-1][0])
            return rows

        def listIdentifiers(self, metadataPrefix, set=None, from_=None, until=None, cursor=0, batch_size=10):
            return [header(r) for r in self._rows(False, metadataPrefix, set, from_, until, cursor, batch_size)]

        def listRecords(self, metadataPrefix, set=None, from_=None, until=None, cursor=0, batch_size=10):
            out = []
            for r in self._rows(True, metadataPrefix, set, from_, until, cursor, batch_size):
                h = header(r)
                md = None if h.isDeleted() or r[5] is None else common.Metadata(None, dc_map(r[5]))
                out.append((h, md, None))
            return out

        def getRecord(self, metadataPrefix, identifier):
            r = db.execute('SELECT i.pk, i.identifier, i.datestamp, i.deleted, i.direct_sets, r.xml FROM items i '
                           'JOIN records r ON r.item_pk = i.pk AND r.prefix = ? WHERE i.identifier = ?',
                           (metadataPrefix, identifier)).fetchone()
            if r is None:
                raise error.IdDoesNotExistError(identifier)
            h = header(r)
            return h, (None if h.isDeleted() or r[5] is None else common.Metadata(None, dc_map(r[5]))), None

    registry = metadata.MetadataRegistry()
    registry.registerWriter('oai_dc', server.oai_dc_writer)
    provider = server.BatchingServer(Peer(), metadata_registry=registry, resumption_batch_size=a.batch)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'
        # As Node's HTTP server does: without it the body, written after the
        # headers, waits for the client's delayed ACK (40 ms a page).
        disable_nagle_algorithm = True

        def do_GET(self):
            body = provider.handleRequest(dict(parse_qsl(urlsplit(self.path).query)))
            self.send_response(200)
            self.send_header('Content-Type', 'text/xml; charset=UTF-8')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = HTTPServer(('127.0.0.1', a.port), Handler)
    print('listening %d' % httpd.server_address[1], flush=True)
    httpd.serve_forever()


if __name__ == '__main__':
    main()
