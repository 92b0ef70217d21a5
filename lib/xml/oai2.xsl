<?xml version="1.0" encoding="UTF-8"?>
<!--
  oai2.xsl: renders any OAI-PMH 2.0 response as a readable HTML page.

  Harvesters ignore the xml-stylesheet processing instruction that points
  here; browsers apply this stylesheet and show people what a harvester
  would see, with links to move around the repository (issue 4, "A page
  for people").

  Constraints that shape this file:
  - XSLT 1.0 only: it is what browsers (libxslt in Chromium, TransforMiiX
    in Firefox) and xsltproc implement. No extension functions, no
    disable-output-escaping (Firefox ignores it).
  - Links are relative query references ("?verb=..."), so the page works
    at whatever path the provider is mounted and behind any proxy, without
    trusting the configured baseURL to be reachable from the reader's
    browser. The `base` parameter can prefix them when transforming
    offline (xsltproc - -stringparam base http://host/oai).
  - Every argument placed in a link goes through the `url-encode` template:
    identifiers may hold '%', '#', '?', '+', '&' and spaces
    (OAI identifier format 2.5 escapes with '%'), and a raw '+' would be
    read back as a space by form decoders (OAI-PMH 3.1.1.1: arguments are
    application/x-www-form-urlencoded).
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:oai="http://www.openarchives.org/OAI/2.0/"
    xmlns:oai-id="http://www.openarchives.org/OAI/2.0/oai-identifier"
    xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    exclude-result-prefixes="oai oai-id oai_dc dc">

  <xsl:output method="html" encoding="UTF-8" indent="yes"
      doctype-system="about:legacy-compat"/>

  <!-- Prefix for every link; empty means "this page's own path". -->
  <xsl:param name="base" select="''"/>

  <!-- RFC 3986 section 2.3: the only characters never percent-encoded. -->
  <xsl:variable name="unreserved"
      select="'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'"/>

  <!-- Printable ASCII from U+0020 to U+007E in code-point order: the
       position of a character in this string, plus 31, is its code. -->
  <xsl:variable name="ascii">
    <xsl:text> !"#$%&amp;'()*+,-./0123456789:;&lt;=&gt;?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~</xsl:text>
  </xsl:variable>

  <xsl:variable name="hex" select="'0123456789ABCDEF'"/>

  <!-- The request element carries the base URL as text and the arguments
       as attributes (OAI-PMH 3.2). -->
  <xsl:variable name="request" select="/oai:OAI-PMH/oai:request"/>
  <xsl:variable name="verb" select="string($request/@verb)"/>
  <xsl:variable name="baseURL" select="normalize-space($request)"/>

  <!-- ================================================================
       URL encoding
       ================================================================ -->

  <!--
    Percent-encodes every ASCII character outside the unreserved set
    (RFC 3986 2.3), '%' included, so any identifier or token survives the
    round trip through a query string. Non-ASCII characters are left as
    they are: XSLT 1.0 cannot see their UTF-8 octets, and browsers (and
    libxml2's HTML serializer) encode them as UTF-8 in an href.

    The string is split in halves rather than walked character by
    character, so the recursion depth is logarithmic in its length and a
    long resumption token cannot exhaust libxslt's template depth limit.
  -->
  <xsl:template name="url-encode">
    <xsl:param name="s"/>
    <xsl:variable name="n" select="string-length($s)"/>
    <xsl:choose>
      <xsl:when test="$n = 0"/>
      <xsl:when test="translate($s, $unreserved, '') = ''">
        <xsl:value-of select="$s"/>
      </xsl:when>
      <xsl:when test="$n = 1">
        <xsl:call-template name="url-encode-char">
          <xsl:with-param name="c" select="$s"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="half" select="floor($n div 2)"/>
        <xsl:call-template name="url-encode">
          <xsl:with-param name="s" select="substring($s, 1, $half)"/>
        </xsl:call-template>
        <xsl:call-template name="url-encode">
          <xsl:with-param name="s" select="substring($s, $half + 1)"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- Encodes one character that is known not to be unreserved. -->
  <xsl:template name="url-encode-char">
    <xsl:param name="c"/>
    <xsl:choose>
      <xsl:when test="contains($ascii, $c)">
        <xsl:variable name="code"
            select="string-length(substring-before($ascii, $c)) + 32"/>
        <xsl:value-of select="concat('%',
            substring($hex, floor($code div 16) + 1, 1),
            substring($hex, $code mod 16 + 1, 1))"/>
      </xsl:when>
      <!-- The only control characters XML 1.0 allows in text. -->
      <xsl:when test="$c = '&#9;'">%09</xsl:when>
      <xsl:when test="$c = '&#10;'">%0A</xsl:when>
      <xsl:when test="$c = '&#13;'">%0D</xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$c"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!--
    Writes an href attribute for a request to this repository. Arguments
    come as up to three name/value pairs; a pair with an empty value is
    left out, because OAI-PMH 3.1.1 forbids empty arguments.
  -->
  <xsl:template name="href">
    <xsl:param name="verb"/>
    <xsl:param name="n1"/>
    <xsl:param name="v1"/>
    <xsl:param name="n2"/>
    <xsl:param name="v2"/>
    <xsl:param name="n3"/>
    <xsl:param name="v3"/>
    <xsl:attribute name="href">
      <xsl:value-of select="concat($base, '?verb=', $verb)"/>
      <xsl:if test="string($v1) != ''">
        <xsl:value-of select="concat('&amp;', $n1, '=')"/>
        <xsl:call-template name="url-encode">
          <xsl:with-param name="s" select="string($v1)"/>
        </xsl:call-template>
      </xsl:if>
      <xsl:if test="string($v2) != ''">
        <xsl:value-of select="concat('&amp;', $n2, '=')"/>
        <xsl:call-template name="url-encode">
          <xsl:with-param name="s" select="string($v2)"/>
        </xsl:call-template>
      </xsl:if>
      <xsl:if test="string($v3) != ''">
        <xsl:value-of select="concat('&amp;', $n3, '=')"/>
        <xsl:call-template name="url-encode">
          <xsl:with-param name="s" select="string($v3)"/>
        </xsl:call-template>
      </xsl:if>
    </xsl:attribute>
  </xsl:template>

  <!-- ================================================================
       Page
       ================================================================ -->

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>
          <xsl:choose>
            <xsl:when test="oai:OAI-PMH/oai:error">OAI-PMH error</xsl:when>
            <xsl:when test="$verb != ''"><xsl:value-of select="$verb"/></xsl:when>
            <xsl:otherwise>OAI-PMH</xsl:otherwise>
          </xsl:choose>
          <xsl:if test="oai:OAI-PMH/oai:Identify/oai:repositoryName">
            <xsl:value-of select="concat(' · ', normalize-space(oai:OAI-PMH/oai:Identify/oai:repositoryName))"/>
          </xsl:if>
        </title>
        <style>
          body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
          header.site { background: #24292f; color: #fff; padding: .8em 1.5em; }
          header.site .base { font-family: ui-monospace, monospace; font-size: .9em; color: #d0d7de; word-break: break-all; }
          header.site h1 { font-size: 1.15em; margin: 0 0 .2em; }
          nav a { color: #fff; margin-right: 1.1em; text-decoration: none; border-bottom: 1px solid transparent; }
          nav a:hover, nav a.current { border-bottom-color: #fff; }
          main { max-width: 62em; margin: 0 auto; padding: 1em 1.5em 3em; }
          .request { color: #57606a; font-size: .9em; }
          .request code { background: #eaeef2; padding: 0 .3em; border-radius: 3px; }
          h2 { font-size: 1.3em; margin: 1em 0 .5em; }
          table { border-collapse: collapse; width: 100%; background: #fff; margin: .5em 0 1em; }
          th, td { text-align: left; vertical-align: top; padding: .35em .6em; border: 1px solid #d0d7de; word-break: break-word; }
          th { background: #f0f3f6; width: 13em; font-weight: 600; }
          thead th { width: auto; }
          a { color: #0969da; }
          .record, .error { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: .6em 1em; margin: 0 0 1em; }
          .record h3 { font-size: 1.05em; margin: .2em 0 .4em; font-family: ui-monospace, monospace; word-break: break-all; }
          .record.deleted { background: #fff8f8; border-color: #e5a0a0; }
          .badge { display: inline-block; font-size: .75em; font-weight: 600; padding: .05em .5em; border-radius: 1em; background: #cf222e; color: #fff; vertical-align: middle; font-family: system-ui, sans-serif; }
          .meta { color: #57606a; font-size: .9em; }
          .meta span { margin-right: 1.2em; }
          .error { border-color: #cf222e; }
          .error code { font-weight: 600; color: #cf222e; }
          .pager { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: .6em 1em; }
          .pager a.next { font-weight: 600; }
          ul.xml { margin: .2em 0; padding-left: 1.2em; }
          ul.xml .el { font-family: ui-monospace, monospace; color: #8250df; }
          ul.xml .at { font-family: ui-monospace, monospace; color: #57606a; font-size: .9em; }
          ol.headers { padding-left: 2.5em; }
          ol.headers .record { margin-bottom: .5em; }
        </style>
      </head>
      <body>
        <header class="site">
          <h1>OAI-PMH repository</h1>
          <xsl:if test="$baseURL != ''">
            <div class="base"><xsl:value-of select="$baseURL"/></div>
          </xsl:if>
          <nav>
            <xsl:call-template name="nav-link">
              <xsl:with-param name="label">Identify</xsl:with-param>
              <xsl:with-param name="verb">Identify</xsl:with-param>
            </xsl:call-template>
            <xsl:call-template name="nav-link">
              <xsl:with-param name="label">ListRecords (oai_dc)</xsl:with-param>
              <xsl:with-param name="verb">ListRecords</xsl:with-param>
              <xsl:with-param name="prefix">oai_dc</xsl:with-param>
            </xsl:call-template>
            <xsl:call-template name="nav-link">
              <xsl:with-param name="label">ListIdentifiers (oai_dc)</xsl:with-param>
              <xsl:with-param name="verb">ListIdentifiers</xsl:with-param>
              <xsl:with-param name="prefix">oai_dc</xsl:with-param>
            </xsl:call-template>
            <xsl:call-template name="nav-link">
              <xsl:with-param name="label">ListSets</xsl:with-param>
              <xsl:with-param name="verb">ListSets</xsl:with-param>
            </xsl:call-template>
            <xsl:call-template name="nav-link">
              <xsl:with-param name="label">ListMetadataFormats</xsl:with-param>
              <xsl:with-param name="verb">ListMetadataFormats</xsl:with-param>
            </xsl:call-template>
          </nav>
        </header>
        <main>
          <xsl:choose>
            <xsl:when test="oai:OAI-PMH">
              <xsl:apply-templates select="oai:OAI-PMH"/>
            </xsl:when>
            <xsl:otherwise>
              <!-- Not an OAI-PMH response: still show what it holds. -->
              <h2>XML document</h2>
              <ul class="xml"><xsl:apply-templates select="*" mode="generic"/></ul>
            </xsl:otherwise>
          </xsl:choose>
        </main>
      </body>
    </html>
  </xsl:template>

  <xsl:template name="nav-link">
    <xsl:param name="label"/>
    <xsl:param name="verb"/>
    <xsl:param name="prefix"/>
    <a>
      <xsl:call-template name="href">
        <xsl:with-param name="verb" select="$verb"/>
        <xsl:with-param name="n1">metadataPrefix</xsl:with-param>
        <xsl:with-param name="v1" select="$prefix"/>
      </xsl:call-template>
      <xsl:if test="$verb = $request/@verb">
        <xsl:attribute name="class">current</xsl:attribute>
      </xsl:if>
      <xsl:value-of select="$label"/>
    </a>
  </xsl:template>

  <xsl:template match="oai:OAI-PMH">
    <p class="request">
      <xsl:text>Request: </xsl:text>
      <xsl:for-each select="oai:request/@*">
        <code><xsl:value-of select="concat(name(), '=', .)"/></code>
        <xsl:text> </xsl:text>
      </xsl:for-each>
      <xsl:if test="not(oai:request/@*)"><code>(no arguments)</code> </xsl:if>
      <xsl:text>· Response date: </xsl:text>
      <xsl:value-of select="normalize-space(oai:responseDate)"/>
    </p>
    <xsl:apply-templates select="oai:error[1]"/>
    <xsl:apply-templates select="oai:Identify | oai:ListSets | oai:ListMetadataFormats
        | oai:ListIdentifiers | oai:ListRecords | oai:GetRecord"/>
  </xsl:template>

  <!-- ================================================================
       Errors (OAI-PMH 3.6): all of them, with code and message.
       ================================================================ -->

  <xsl:template match="oai:error">
    <h2>Error</h2>
    <xsl:for-each select="../oai:error">
      <div class="error">
        <code><xsl:value-of select="@code"/></code>
        <xsl:if test="normalize-space(.) != ''">
          <xsl:text>: </xsl:text>
          <xsl:value-of select="normalize-space(.)"/>
        </xsl:if>
      </div>
    </xsl:for-each>
  </xsl:template>

  <!-- ================================================================
       Identify (OAI-PMH 4.2)
       ================================================================ -->

  <xsl:template match="oai:Identify">
    <h2><xsl:value-of select="normalize-space(oai:repositoryName)"/></h2>
    <table class="identify">
      <tr><th>Repository name</th><td><xsl:value-of select="normalize-space(oai:repositoryName)"/></td></tr>
      <tr><th>Base URL</th><td><xsl:call-template name="maybe-link"><xsl:with-param name="text" select="normalize-space(oai:baseURL)"/></xsl:call-template></td></tr>
      <tr><th>Protocol version</th><td><xsl:value-of select="oai:protocolVersion"/></td></tr>
      <tr><th>Earliest datestamp</th><td><xsl:value-of select="oai:earliestDatestamp"/></td></tr>
      <tr><th>Deleted records</th><td><xsl:value-of select="oai:deletedRecord"/></td></tr>
      <tr><th>Granularity</th><td><xsl:value-of select="oai:granularity"/></td></tr>
      <tr>
        <th>Administrators</th>
        <td>
          <xsl:for-each select="oai:adminEmail">
            <xsl:if test="position() &gt; 1"><br/></xsl:if>
            <a href="mailto:{normalize-space(.)}"><xsl:value-of select="normalize-space(.)"/></a>
          </xsl:for-each>
        </td>
      </tr>
      <tr>
        <th>Compression</th>
        <td>
          <xsl:for-each select="oai:compression">
            <xsl:if test="position() &gt; 1">, </xsl:if>
            <xsl:value-of select="normalize-space(.)"/>
          </xsl:for-each>
          <xsl:if test="not(oai:compression)">identity only</xsl:if>
        </td>
      </tr>
    </table>
    <xsl:apply-templates select="oai:description"/>
  </xsl:template>

  <!-- The oai-identifier description (OAI identifier format, section 3). -->
  <xsl:template match="oai:description[oai-id:oai-identifier]">
    <h2>Identifiers</h2>
    <xsl:for-each select="oai-id:oai-identifier">
      <table class="oai-identifier">
        <tr><th>Scheme</th><td><xsl:value-of select="oai-id:scheme"/></td></tr>
        <tr><th>Repository identifier</th><td><xsl:value-of select="oai-id:repositoryIdentifier"/></td></tr>
        <tr><th>Delimiter</th><td><code><xsl:value-of select="oai-id:delimiter"/></code></td></tr>
        <tr>
          <th>Sample identifier</th>
          <td>
            <a>
              <xsl:call-template name="href">
                <xsl:with-param name="verb">GetRecord</xsl:with-param>
                <xsl:with-param name="n1">identifier</xsl:with-param>
                <xsl:with-param name="v1" select="string(oai-id:sampleIdentifier)"/>
                <xsl:with-param name="n2">metadataPrefix</xsl:with-param>
                <xsl:with-param name="v2">oai_dc</xsl:with-param>
              </xsl:call-template>
              <xsl:value-of select="oai-id:sampleIdentifier"/>
            </a>
          </td>
        </tr>
      </table>
    </xsl:for-each>
  </xsl:template>

  <!-- Any other description container (friends, branding, eprints...). -->
  <xsl:template match="oai:description">
    <h2>Description: <xsl:value-of select="local-name(*)"/></h2>
    <ul class="xml"><xsl:apply-templates select="*" mode="generic"/></ul>
  </xsl:template>

  <!-- ================================================================
       ListSets (OAI-PMH 4.6)
       ================================================================ -->

  <xsl:template match="oai:ListSets">
    <h2>Sets</h2>
    <table class="sets">
      <thead><tr><th>Set</th><th>Name</th><th>Description</th><th>Browse</th></tr></thead>
      <tbody>
        <xsl:for-each select="oai:set">
          <tr>
            <td><code><xsl:value-of select="oai:setSpec"/></code></td>
            <td><xsl:value-of select="normalize-space(oai:setName)"/></td>
            <td><xsl:apply-templates select="oai:setDescription/*" mode="metadata"/></td>
            <td>
              <a>
                <xsl:call-template name="href">
                  <xsl:with-param name="verb">ListRecords</xsl:with-param>
                  <xsl:with-param name="n1">metadataPrefix</xsl:with-param>
                  <xsl:with-param name="v1">oai_dc</xsl:with-param>
                  <xsl:with-param name="n2">set</xsl:with-param>
                  <xsl:with-param name="v2" select="string(oai:setSpec)"/>
                </xsl:call-template>
                <xsl:text>records</xsl:text>
              </a>
              <xsl:text> · </xsl:text>
              <a>
                <xsl:call-template name="href">
                  <xsl:with-param name="verb">ListIdentifiers</xsl:with-param>
                  <xsl:with-param name="n1">metadataPrefix</xsl:with-param>
                  <xsl:with-param name="v1">oai_dc</xsl:with-param>
                  <xsl:with-param name="n2">set</xsl:with-param>
                  <xsl:with-param name="v2" select="string(oai:setSpec)"/>
                </xsl:call-template>
                <xsl:text>identifiers</xsl:text>
              </a>
            </td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
    <xsl:apply-templates select="oai:resumptionToken"/>
  </xsl:template>

  <!-- ================================================================
       ListMetadataFormats (OAI-PMH 4.4)
       ================================================================ -->

  <xsl:template match="oai:ListMetadataFormats">
    <h2>
      <xsl:text>Metadata formats</xsl:text>
      <xsl:if test="$request/@identifier">
        <xsl:text> of </xsl:text>
        <code><xsl:value-of select="$request/@identifier"/></code>
      </xsl:if>
    </h2>
    <table class="formats">
      <thead><tr><th>Prefix</th><th>Schema</th><th>Namespace</th></tr></thead>
      <tbody>
        <xsl:for-each select="oai:metadataFormat">
          <xsl:variable name="prefix" select="normalize-space(oai:metadataPrefix)"/>
          <tr>
            <td>
              <a>
                <xsl:choose>
                  <!-- For one item, the useful link is that item in this format. -->
                  <xsl:when test="$request/@identifier">
                    <xsl:call-template name="href">
                      <xsl:with-param name="verb">GetRecord</xsl:with-param>
                      <xsl:with-param name="n1">identifier</xsl:with-param>
                      <xsl:with-param name="v1" select="string($request/@identifier)"/>
                      <xsl:with-param name="n2">metadataPrefix</xsl:with-param>
                      <xsl:with-param name="v2" select="$prefix"/>
                    </xsl:call-template>
                  </xsl:when>
                  <xsl:otherwise>
                    <xsl:call-template name="href">
                      <xsl:with-param name="verb">ListRecords</xsl:with-param>
                      <xsl:with-param name="n1">metadataPrefix</xsl:with-param>
                      <xsl:with-param name="v1" select="$prefix"/>
                    </xsl:call-template>
                  </xsl:otherwise>
                </xsl:choose>
                <xsl:value-of select="$prefix"/>
              </a>
            </td>
            <td><xsl:call-template name="maybe-link"><xsl:with-param name="text" select="normalize-space(oai:schema)"/></xsl:call-template></td>
            <td><xsl:value-of select="normalize-space(oai:metadataNamespace)"/></td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <!-- ================================================================
       ListIdentifiers, ListRecords, GetRecord (OAI-PMH 4.3, 4.5, 4.1)
       ================================================================ -->

  <xsl:template match="oai:ListIdentifiers">
    <h2>Identifiers</h2>
    <xsl:call-template name="page-summary">
      <xsl:with-param name="count" select="count(oai:header)"/>
    </xsl:call-template>
    <ol class="headers" start="{number(concat('0', oai:resumptionToken/@cursor)) + 1}">
      <xsl:for-each select="oai:header">
        <li><xsl:apply-templates select="."/></li>
      </xsl:for-each>
    </ol>
    <xsl:apply-templates select="oai:resumptionToken"/>
  </xsl:template>

  <xsl:template match="oai:ListRecords">
    <h2>Records</h2>
    <xsl:call-template name="page-summary">
      <xsl:with-param name="count" select="count(oai:record)"/>
    </xsl:call-template>
    <xsl:apply-templates select="oai:record"/>
    <xsl:apply-templates select="oai:resumptionToken"/>
  </xsl:template>

  <xsl:template match="oai:GetRecord">
    <h2>Record</h2>
    <xsl:apply-templates select="oai:record"/>
  </xsl:template>

  <!-- Which items of the complete list this page holds (OAI-PMH 3.5:
       cursor counts the items sent before this response). -->
  <xsl:template name="page-summary">
    <xsl:param name="count"/>
    <xsl:variable name="rt" select="oai:resumptionToken"/>
    <p class="meta">
      <xsl:choose>
        <xsl:when test="$rt/@cursor and $count &gt; 0">
          <xsl:value-of select="concat('Items ', $rt/@cursor + 1, '–', $rt/@cursor + $count)"/>
        </xsl:when>
        <xsl:otherwise>
          <xsl:value-of select="concat($count, ' item')"/>
          <xsl:if test="$count != 1">s</xsl:if>
          <xsl:text> on this page</xsl:text>
        </xsl:otherwise>
      </xsl:choose>
      <xsl:if test="$rt/@completeListSize">
        <xsl:value-of select="concat(' of ', $rt/@completeListSize)"/>
      </xsl:if>
    </p>
  </xsl:template>

  <xsl:template match="oai:record">
    <div class="record">
      <xsl:if test="oai:header/@status = 'deleted'">
        <xsl:attribute name="class">record deleted</xsl:attribute>
      </xsl:if>
      <xsl:apply-templates select="oai:header" mode="in-record"/>
      <xsl:choose>
        <xsl:when test="oai:metadata">
          <xsl:apply-templates select="oai:metadata/*" mode="metadata"/>
        </xsl:when>
        <xsl:when test="oai:header/@status = 'deleted'">
          <p class="meta">This record has been deleted: it has no metadata.</p>
        </xsl:when>
      </xsl:choose>
      <xsl:for-each select="oai:about">
        <details>
          <summary>About: <xsl:value-of select="local-name(*)"/></summary>
          <ul class="xml"><xsl:apply-templates select="*" mode="generic"/></ul>
        </details>
      </xsl:for-each>
    </div>
  </xsl:template>

  <!-- A header inside a record: the record box is already drawn. -->
  <xsl:template match="oai:header" mode="in-record">
    <xsl:call-template name="header-body"/>
  </xsl:template>

  <!-- A header in ListIdentifiers gets its own box. -->
  <xsl:template match="oai:header">
    <div class="record">
      <xsl:if test="@status = 'deleted'">
        <xsl:attribute name="class">record deleted</xsl:attribute>
      </xsl:if>
      <xsl:call-template name="header-body"/>
    </div>
  </xsl:template>

  <!-- The header (OAI-PMH 2.5): identifier with links, datestamp, sets
       and, prominently, the deleted status. -->
  <xsl:template name="header-body">
    <xsl:variable name="id" select="string(oai:identifier)"/>
    <xsl:variable name="prefix" select="string($request/@metadataPrefix)"/>
    <h3>
      <a class="identifier">
        <xsl:call-template name="href">
          <xsl:with-param name="verb">GetRecord</xsl:with-param>
          <xsl:with-param name="n1">identifier</xsl:with-param>
          <xsl:with-param name="v1" select="$id"/>
          <xsl:with-param name="n2">metadataPrefix</xsl:with-param>
          <xsl:with-param name="v2">oai_dc</xsl:with-param>
        </xsl:call-template>
        <xsl:value-of select="$id"/>
      </a>
      <xsl:if test="@status = 'deleted'">
        <xsl:text> </xsl:text>
        <span class="badge">deleted</span>
      </xsl:if>
    </h3>
    <div class="meta">
      <span>Datestamp: <xsl:value-of select="normalize-space(oai:datestamp)"/></span>
      <xsl:if test="oai:setSpec">
        <span>
          <xsl:text>Sets: </xsl:text>
          <xsl:for-each select="oai:setSpec">
            <xsl:if test="position() &gt; 1">, </xsl:if>
            <a class="set">
              <xsl:call-template name="href">
                <xsl:with-param name="verb">ListRecords</xsl:with-param>
                <xsl:with-param name="n1">metadataPrefix</xsl:with-param>
                <xsl:with-param name="v1">oai_dc</xsl:with-param>
                <xsl:with-param name="n2">set</xsl:with-param>
                <xsl:with-param name="v2" select="string(.)"/>
              </xsl:call-template>
              <xsl:value-of select="."/>
            </a>
          </xsl:for-each>
        </span>
      </xsl:if>
      <span>
        <a class="formats">
          <xsl:call-template name="href">
            <xsl:with-param name="verb">ListMetadataFormats</xsl:with-param>
            <xsl:with-param name="n1">identifier</xsl:with-param>
            <xsl:with-param name="v1" select="$id"/>
          </xsl:call-template>
          <xsl:text>formats</xsl:text>
        </a>
        <!-- Browsing another format: offer the record in that format too. -->
        <xsl:if test="$prefix != '' and $prefix != 'oai_dc'">
          <xsl:text> · </xsl:text>
          <a class="in-format">
            <xsl:call-template name="href">
              <xsl:with-param name="verb">GetRecord</xsl:with-param>
              <xsl:with-param name="n1">identifier</xsl:with-param>
              <xsl:with-param name="v1" select="$id"/>
              <xsl:with-param name="n2">metadataPrefix</xsl:with-param>
              <xsl:with-param name="v2" select="$prefix"/>
            </xsl:call-template>
            <xsl:value-of select="$prefix"/>
          </a>
        </xsl:if>
      </span>
      <xsl:if test="@status = 'deleted'">
        <span>Status: deleted</span>
      </xsl:if>
    </div>
  </xsl:template>

  <!-- ================================================================
       Resumption token (OAI-PMH 3.5)
       ================================================================ -->

  <xsl:template match="oai:resumptionToken">
    <div class="pager">
      <xsl:choose>
        <xsl:when test="string(.) != ''">
          <a class="next" rel="next">
            <xsl:call-template name="href">
              <xsl:with-param name="verb" select="$verb"/>
              <xsl:with-param name="n1">resumptionToken</xsl:with-param>
              <xsl:with-param name="v1" select="string(.)"/>
            </xsl:call-template>
            <xsl:text>Next page →</xsl:text>
          </a>
        </xsl:when>
        <xsl:otherwise>
          <span>Last page of the list.</span>
        </xsl:otherwise>
      </xsl:choose>
      <span class="meta">
        <xsl:if test="@cursor">
          <xsl:value-of select="concat(' · cursor ', @cursor)"/>
        </xsl:if>
        <xsl:if test="@completeListSize">
          <xsl:value-of select="concat(' · complete list size ', @completeListSize)"/>
        </xsl:if>
        <xsl:if test="@expirationDate">
          <xsl:value-of select="concat(' · token expires ', @expirationDate)"/>
        </xsl:if>
      </span>
    </div>
  </xsl:template>

  <!-- ================================================================
       Metadata
       ================================================================ -->

  <!-- Simple Dublin Core (OAI-PMH 6.2): one row per element, in order. -->
  <xsl:template match="oai_dc:dc" mode="metadata">
    <table class="dc">
      <xsl:for-each select="*">
        <tr>
          <th>
            <xsl:value-of select="concat(
                translate(substring(local-name(), 1, 1), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
                substring(local-name(), 2))"/>
            <xsl:if test="@xml:lang">
              <span class="meta"><xsl:value-of select="concat(' (', @xml:lang, ')')"/></span>
            </xsl:if>
          </th>
          <td>
            <xsl:call-template name="maybe-link">
              <xsl:with-param name="text" select="normalize-space(.)"/>
            </xsl:call-template>
          </td>
        </tr>
      </xsl:for-each>
    </table>
  </xsl:template>

  <!-- Any other format: its element tree, names and text. -->
  <xsl:template match="*" mode="metadata">
    <ul class="xml"><xsl:apply-templates select="." mode="generic"/></ul>
  </xsl:template>

  <xsl:template match="*" mode="generic">
    <li>
      <span class="el"><xsl:value-of select="name()"/></span>
      <xsl:for-each select="@*[not(namespace-uri() = 'http://www.w3.org/2001/XMLSchema-instance')]">
        <xsl:value-of select="' '"/>
        <span class="at"><xsl:value-of select="concat(name(), '=&quot;', ., '&quot;')"/></span>
      </xsl:for-each>
      <xsl:if test="not(*) and normalize-space(.) != ''">
        <xsl:text>: </xsl:text>
        <xsl:call-template name="maybe-link">
          <xsl:with-param name="text" select="normalize-space(.)"/>
        </xsl:call-template>
      </xsl:if>
      <xsl:if test="*">
        <xsl:if test="normalize-space(text()) != ''">
          <xsl:value-of select="concat(': ', normalize-space(text()))"/>
        </xsl:if>
        <ul class="xml"><xsl:apply-templates select="*" mode="generic"/></ul>
      </xsl:if>
    </li>
  </xsl:template>

  <!-- Text that is an http(s) URL becomes a link; other schemes (such as
       javascript:) stay text, since the metadata is not ours to trust. -->
  <xsl:template name="maybe-link">
    <xsl:param name="text"/>
    <xsl:choose>
      <xsl:when test="(starts-with($text, 'http://') or starts-with($text, 'https://'))
          and not(contains($text, ' '))">
        <a href="{$text}"><xsl:value-of select="$text"/></a>
      </xsl:when>
      <xsl:otherwise>
        <xsl:value-of select="$text"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

</xsl:stylesheet>
