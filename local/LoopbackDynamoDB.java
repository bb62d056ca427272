/*
 * Starts DynamoDB Local exactly as its own main class (ServerRunner) does, with the same command
 * line, except that its Jetty connector is bound to 127.0.0.1 before the server starts. DynamoDB
 * Local has no host option and otherwise listens on every interface, where anyone who can reach
 * the machine could read and write the table with any credentials.
 *
 * Compiled on the first start by the Java runtime's own compiler module into node_modules/.cache
 * (local/dynamodb.ts), or else run as a single source file (`java -cp DynamoDBLocal.jar
 * LoopbackDynamoDB.java <args>`), which the runtime compiles in memory: no JDK, no build step.
 * The Jetty server is a private field of DynamoDBProxyServer in the pinned DynamoDB Local version;
 * if a future version renames it, this fails at start with NoSuchFieldException instead of
 * silently binding wide.
 *
 * With a database on disk (-dbPath) it also refuses writes on a nearly full disk (below the usable
 * space `-Dforgeline.fullBelowBytes` names), up front and in words the caller can tell: DynamoDB
 * Local itself only fails once SQLite cannot grow its files, and then answers every write with a
 * bare InternalFailure (500, which every SDK retries), logging SQLITE_FULL to no one. The refusal
 * is a 507 whose body carries `"code":"ENOSPC"`, which the AWS SDK puts on its error, as the file
 * system itself would name it (functions/platform/out-of-space.ts). Reads always pass.
 */
import java.io.File;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import software.amazon.dynamodb.services.local.main.CommandLineInput;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDB {
  public static void main(String[] args) throws Exception {
    if (!new CommandLineInput(args).init()) return; // -help
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local created no connector");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost("127.0.0.1");
    int dbPath = Arrays.asList(args).indexOf("-dbPath");
    String fullBelow = System.getProperty("forgeline.fullBelowBytes");
    if (dbPath >= 0 && dbPath + 1 < args.length && fullBelow != null) {
      server.setHandler(refusingWritesWhenFull(server.getHandler(), new File(args[dbPath + 1]), Long.parseLong(fullBelow)));
    }
    proxy.start();
  }

  private static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems", "CreateTable", "UpdateTable", "UpdateTimeToLive");

  private static final byte[] FULL = ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#InsufficientStorage\",\"code\":\"ENOSPC\","
      + "\"message\":\"The disk under the database is full: no space left on device\"}").getBytes(StandardCharsets.UTF_8);

  private static Handler refusingWritesWhenFull(Handler inner, File dbPath, long fullBelow) {
    return new Handler.Wrapper(inner) {
      @Override
      public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String target = request.getHeaders().get("X-Amz-Target");
        String operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
        if (!WRITES.contains(operation) || dbPath.getUsableSpace() >= fullBelow) return super.handle(request, response, callback);
        response.setStatus(507);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-amz-json-1.0");
        response.write(true, ByteBuffer.wrap(FULL), callback);
        return true;
      }
    };
  }
}
