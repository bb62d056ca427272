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
 */
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
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
    proxy.start();
  }
}
